// name: argumentation.delete_arguments
// mode: write
// params: space, ns
// description: delete the plain Argument nodes of a namespace (and their attacks) inside the caller's transaction; Claim/Proposal nodes are left alone
// :param space => 'default'
// :param ns => 'framework:ex1'
// A plain argument is an Argument that is not a Claim or Proposal (it may also carry the mark of
// its grounded label, :In/:Out/:Undec, so the number of its labels does not tell).
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
WHERE NOT (a:Claim OR a:Proposal)
DETACH DELETE a
RETURN count(*) AS deleted
