// name: bench.load_claims
// mode: write
// params: space, agent, at, rows
// description: bulk-load facts for the write bench: each row a Fact with one active current Claim carrying an embedding (first revision, VERSION_OF, CURRENT, the writer's ASSERTED edge), batched UNWIND
// :param space => 'bench-writes'
// :param agent => 'bench:loader'
// :param at => '2026-12-04T10:00:00Z'
// :param rows => [{id: 'c-1', key: 'bench.k1', value: 'v1', text: 'bench.k1 is v1', embedding: null}]
// What assert_claim writes for a first version, embedding and ASSERTED edge included, so the
// vector and fulltext indexes and the writer's node grow with the store the bench measures on.
// No FactLock: the write path creates it on the first lock of the key.
MERGE (a:Agent {space: $space, id: $agent})
ON CREATE SET a.kind = 'system'
WITH a
UNWIND $rows AS row
CREATE (f:Fact {space: $space, key: row.key})
SET f.created_at = datetime($at), f.value_type = 'string'
CREATE (c:Claim:Active {space: $space, id: row.id})
SET c.key = row.key, c.value = row.value, c.text = row.text, c.kind = 'semantic', c.agent = $agent,
    c.status = 'active', c.active_key = row.key, c.created_at = datetime($at), c.valid_from = datetime($at),
    c.embedding = row.embedding
CREATE (a)-[:ASSERTED]->(c)
CREATE (c)-[:VERSION_OF]->(f)
CREATE (f)-[:CURRENT]->(c)
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, id: row.id + ':r0', claim: row.id, status: 'active',
        at: datetime($at), reason: 'bench load'})
RETURN count(*) AS loaded
