// version: 3
// description: fulltext index on claim text; cosine vector indexes on claim and concept embeddings
// params: dimension
// In cypher-shell: `:param dimension => 384` first (384 = all-MiniLM-L6-v2, 1536 = text-embedding-3-small).
CREATE FULLTEXT INDEX claim_text IF NOT EXISTS FOR (n:Claim) ON EACH [n.text];
CREATE VECTOR INDEX claim_embedding IF NOT EXISTS FOR (n:Claim) ON (n.embedding) OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX concept_embedding IF NOT EXISTS FOR (n:Concept) ON (n.embedding) OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};
