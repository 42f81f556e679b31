// name: argumentation.delete_arguments_batched
// mode: write
// autocommit: true
// params: space, ns, batch
// description: delete the plain Argument nodes of a large namespace in batches of $batch (auto-commit; Claim/Proposal nodes are left alone)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param batch => 10000
// A plain argument is an Argument that is not a Claim or Proposal (it may also carry the mark of
// its grounded label, :In/:Out/:Undec, so the number of its labels does not tell).
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
WHERE NOT (a:Claim OR a:Proposal)
CALL (a) {
  DETACH DELETE a
} IN TRANSACTIONS OF $batch ROWS
