// name: support.delete_space_batch
// mode: write
// params: space, limit
// description: delete up to $limit nodes of one (bench) space; the caller repeats until 0, so a space of millions never needs one huge transaction
// :param space => 'bench-latency'
// :param limit => 10000
MATCH (n)
WHERE n.space = $space
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
