// name: argumentation.delete_arguments
// mode: write
// params: space, ns
// description: delete the plain Argument nodes of a namespace (and their attacks) inside the caller's transaction; Claim/Proposal nodes are left alone
// :param space => 'default'
// :param ns => 'framework:ex1'
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
WHERE size(labels(a)) = 1
DETACH DELETE a
RETURN count(*) AS deleted
