// name: argumentation.enlist_nodes
// mode: write
// params: space, ns, ids
// description: make existing Claim/Proposal nodes (by id) arguments of a namespace: extra label Argument, ns, name = id; returns the ids found
// :param space => 'default'
// :param ns => 'deliberation:d1'
// :param ids => ['c1', 'p1']
UNWIND $ids AS id
CALL (id) {
  MATCH (n:Claim {space: $space, id: id})
  RETURN n
  UNION
  MATCH (n:Proposal {space: $space, id: id})
  RETURN n
}
SET n:Argument, n.space = $space, n.ns = $ns, n.name = n.id
RETURN collect(n.id) AS ids
