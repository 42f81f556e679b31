// name: admin.delete_space_rest
// mode: write
// params: space, limit
// description: delete up to $limit nodes of one memory space that no space index reaches (a node of a label the schema does not index, one written by hand in the console); the last step of deleting a space, after admin.delete_space_batch and admin.delete_space_agents; the caller repeats until 0
// :param space => 'bench-writes'
// :param limit => 2000
// This one reads every node of the store (no index covers every label), so it runs once per deleted
// space, when the indexed labels are gone, not once per batch.
MATCH (n)
WHERE n.space = $space
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
