// name: bench.load_vectors
// mode: write
// params: space, rows, at
// description: bench recall: create one batch of active claims with their first revisions and their vectors (stored as float32 vector properties) in a scratch space
// :param space => '__bench_recall__'
// :param rows => [{id: 'b-1', text: 'bench claim 1', embedding: [0.1, 0.2]}]
// :param at => '2026-12-03T00:00:00Z'
// Each claim gets its first revision, as every claim the engine writes, so `db check` holds on a
// kept bench space.
UNWIND $rows AS r
CREATE (c:Claim:Active {space: $space, id: r.id, text: r.text, kind: 'semantic', agent: 'bench', status: 'active', created_at: datetime($at)})
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, id: r.id + ':r0', claim: r.id, status: 'active',
        at: datetime($at), reason: 'bench load'})
WITH c, r
CALL db.create.setNodeVectorProperty(c, 'embedding', r.embedding)
RETURN count(*) AS created
