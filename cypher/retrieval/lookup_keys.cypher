// name: retrieval.lookup_keys
// mode: read
// params: space, keys, prefix, include_inactive, at, limit
// description: exact-key and key-prefix look-up: the claims of the matching facts that are active (now, or at time at from the revisions), or every version with include_inactive
// :param space => 'default'
// :param keys => ['user.timezone']
// :param prefix => null
// :param include_inactive => false
// :param at => null
// :param limit => 100
MATCH (f:Fact {space: $space})
USING INDEX f:Fact(space, key)
WHERE f.key IS NOT NULL AND ($keys IS NULL OR f.key IN $keys) AND ($prefix IS NULL OR f.key STARTS WITH $prefix)
MATCH (c:Claim)-[:VERSION_OF]->(f)
CALL (c) {
  OPTIONAL MATCH (c)-[:HAS_REVISION]->(rev:Revision)
  WHERE $at IS NOT NULL AND rev.at <= datetime($at)
  WITH rev ORDER BY rev.at DESC, coalesce(rev.seq, 0) DESC, rev.id DESC
  RETURN head(collect(rev.status)) AS revised
}
WITH f, c,
     CASE WHEN $at IS NULL THEN c.status
          WHEN revised IS NOT NULL THEN revised
          WHEN NOT EXISTS { (c)-[:HAS_REVISION]->(:Revision) } AND c.created_at <= datetime($at) THEN c.status
     END AS status_then
WHERE status_then IS NOT NULL AND ($include_inactive OR status_then = 'active')
RETURN c.id AS id, f.key AS key, status_then
ORDER BY f.key, c.created_at DESC, c.id DESC
LIMIT $limit
