// name: argumentation.delete_framework
// mode: write
// params: space, name
// description: delete a Framework node (its arguments are deleted first with delete_arguments)
// :param space => 'default'
// :param name => 'ex1'
MATCH (f:Framework {space: $space, name: $name})
DETACH DELETE f
RETURN count(*) AS deleted
