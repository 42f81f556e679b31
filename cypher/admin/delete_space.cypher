// name: admin.delete_space
// mode: write
// params: space
// description: remove every node of one memory space (scratch spaces such as doctor's probe, tests); returns how many
// :param space => '__scratch__'
// Every node carries `space` (DESIGN.md section 1), so this one predicate covers all labels.
MATCH (n)
WHERE n.space = $space
DETACH DELETE n
RETURN count(*) AS deleted
