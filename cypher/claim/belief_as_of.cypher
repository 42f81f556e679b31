// name: claim.belief_as_of
// mode: read
// params: space, key, at
// description: the belief memory held for a fact at time at (from the immutable revisions)
// :param space => 'default'
// :param key => 'user.timezone'
// :param at => '2026-01-01T00:00:00Z'
MATCH (:Fact {space: $space, key: $key})<-[:VERSION_OF]-(c:Claim)
CALL (c) {
  MATCH (c)-[:HAS_REVISION]->(r:Revision)
  WHERE r.at <= datetime($at)
  WITH r ORDER BY r.at DESC, coalesce(r.seq, 0) DESC, r.id DESC
  RETURN head(collect(r.status)) AS status_then
}
WITH c, status_then WHERE status_then = 'active'
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim, status_then
ORDER BY c.created_at DESC, c.id DESC
LIMIT 1
