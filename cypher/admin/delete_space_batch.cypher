// name: admin.delete_space_batch
// mode: write
// params: space, limit
// description: delete up to $limit nodes of one memory space, writers (Agent) last; the caller repeats until 0 (db drop-space, bench spaces)
// :param space => 'bench-writes'
// :param limit => 2000
// A writer may have asserted every claim of the space: its Agent node holds one ASSERTED edge per
// claim, and deleting it first would delete 10^6 relationships in one transaction (that ran a
// 2 GB heap out of transaction memory). Claims, facts and revisions go first, in batches; the
// agents go once nothing points at them.
MATCH (n)
WHERE n.space = $space AND (NOT n:Agent OR NOT EXISTS { MATCH (m) WHERE m.space = $space AND NOT m:Agent })
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
