// name: argumentation.delete_arguments_batched
// mode: write
// autocommit: true
// params: space, ns, batch
// description: delete the plain Argument nodes of a large namespace in batches of $batch (auto-commit; Claim/Proposal nodes are left alone)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param batch => 10000
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
WHERE size(labels(a)) = 1
CALL (a) {
  DETACH DELETE a
} IN TRANSACTIONS OF $batch ROWS
