// name: bench.load_vectors
// mode: write
// params: space, rows, at
// description: bench recall: create one batch of active claims with their vectors (stored as float32 vector properties) in a scratch space
// :param space => '__bench_recall__'
// :param rows => [{id: 'b-1', text: 'bench claim 1', embedding: [0.1, 0.2]}]
// :param at => '2026-12-03T00:00:00Z'
UNWIND $rows AS r
CREATE (c:Claim:Active {space: $space, id: r.id, text: r.text, kind: 'semantic', agent: 'bench', status: 'active', created_at: datetime($at)})
WITH c, r
CALL db.create.setNodeVectorProperty(c, 'embedding', r.embedding)
RETURN count(*) AS created
