// name: claim.find_premises
// mode: read
// params: space, ids
// description: which of the given ids name an episode or a claim in this space, with its status (evidence validation)
// :param space => 'default'
// :param ids => ['ep-1', 'c-1']
UNWIND $ids AS pid
CALL (pid) {
  MATCH (p:Episode {space: $space, id: pid}) RETURN 'episode' AS kind, coalesce(p.status, 'active') AS status
  UNION
  MATCH (p:Claim {space: $space, id: pid}) RETURN 'claim' AS kind, p.status AS status
}
RETURN pid AS id, kind, status
