// name: admin.delete_space_agents
// mode: write
// params: space, limit
// description: delete up to $limit Agent nodes of one memory space (after admin.delete_space_batch has deleted what they wrote); the caller repeats until 0
// :param space => 'bench-writes'
// :param limit => 2000
MATCH (n:Agent)
USING INDEX SEEK n:Agent(space, id)
WHERE n.space = $space AND n.id IS NOT NULL
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
