// name: support.find_nodes
// mode: read
// params: space, ids
// description: the episodes and claims of this space named by ids, with their kind and status (validation of roots and premises)
// :param space => 'default'
// :param ids => ['ep-1', 'c-1']
UNWIND $ids AS nid
CALL (nid) {
  MATCH (n:Episode {space: $space, id: nid})
  RETURN 'episode' AS kind, coalesce(n.status, 'active') AS status, n.text AS text, null AS key
  UNION
  MATCH (n:Claim {space: $space, id: nid})
  RETURN 'claim' AS kind, n.status AS status, n.text AS text, n.key AS key
}
RETURN nid AS id, kind, status, text, key
