// name: claim.key_history
// mode: read
// params: space, key
// description: every version of a fact, oldest first, with its revisions (status, time, reason) and chain links
// :param space => 'default'
// :param key => 'user.timezone'
MATCH (f:Fact {space: $space, key: $key})<-[:VERSION_OF]-(c:Claim)
CALL (c) {
  OPTIONAL MATCH (c)-[:HAS_REVISION]->(r:Revision)
  WITH r ORDER BY r.at, coalesce(r.seq, 0), r.id
  RETURN collect(r {.status, .reason, .by, .audit, at: toString(r.at)}) AS revisions
}
OPTIONAL MATCH (newer:Claim)-[:SUPERSEDES]->(c)
OPTIONAL MATCH (c)-[:SUPERSEDES]->(older:Claim)
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim, revisions, newer.id AS superseded_by, older.id AS supersedes,
       EXISTS { (f)-[:CURRENT]->(c) } AS current
ORDER BY c.created_at, c.id
