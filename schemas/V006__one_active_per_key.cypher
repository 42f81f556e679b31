// version: 6
// description: the database itself refuses a second active claim per (space, key); per-fact write lock nodes; key registry vector index
// params: dimension
// Only the fact's active current claim carries `active_key` (= its key); every status change that
// leaves `active` removes it. Neo4j ignores nodes without the property in a uniqueness constraint,
// so this constraint is exactly "at most one active claim per (space, key)".
MATCH (f:Fact)-[:CURRENT]->(c:Claim {status: 'active'}) WHERE c.active_key IS NULL SET c.active_key = f.key;
CREATE CONSTRAINT claim_one_active_per_key IF NOT EXISTS FOR (n:Claim) REQUIRE (n.space, n.active_key) IS UNIQUE;
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON (n.embedding) OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};
CREATE CONSTRAINT fact_lock_space_key IF NOT EXISTS FOR (n:FactLock) REQUIRE (n.space, n.key) IS UNIQUE;
