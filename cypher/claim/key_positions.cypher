// name: claim.key_positions
// mode: read
// params: space, key
// description: every agent's standing position on a fact (its active or disputed claims, and corroborations)
// :param space => 'default'
// :param key => 'user.timezone'
MATCH (:Fact {space: $space, key: $key})<-[:VERSION_OF]-(c:Claim)
WHERE c.status IN ['active', 'disputed']
CALL (c) {
  RETURN c.agent AS agent
  UNION
  MATCH (j:Justification {rule: 'corroboration'})-[:JUSTIFIES]->(c)
  RETURN j.agent AS agent
}
RETURN c.id AS claim, c.value AS value, c.status AS status, agent
