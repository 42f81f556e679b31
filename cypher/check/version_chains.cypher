// name: check.version_chains
// mode: read
// params: space, limit
// description: invariant: SUPERSEDES chains are linear (each claim supersedes at most one and is superseded by at most one, both of the same key and space) and their times agree with their order: the newer version is created after the older, the older has a valid_to, no earlier than its valid_from
// Cost: one index seek on Claim(space, id), then each claim's SUPERSEDES edges (linear in the space's
// claims). Strictly increasing created_at along every edge also rules out cycles.
// :param space => 'default'
// :param limit => 100
MATCH (c:Claim)
WHERE c.space = $space AND c.id IS NOT NULL
CALL (c) {
  OPTIONAL MATCH (c)-[:SUPERSEDES]->(old)
  WITH collect(old) AS olds
  OPTIONAL MATCH (newer)-[:SUPERSEDES]->(c)
  WITH olds, count(newer) AS newers, head(olds) AS old
  RETURN [x IN [
      CASE WHEN size(olds) > 1 THEN 'supersedes ' + toString(size(olds)) + ' claims' END,
      CASE WHEN newers > 1 THEN 'superseded by ' + toString(newers) + ' claims' END,
      CASE WHEN old IS NOT NULL AND NOT (old:Claim AND old.space = $space AND coalesce(old.key, '') = coalesce(c.key, ''))
           THEN 'supersedes ' + coalesce(old.id, '?') + ' of another key or space' END,
      CASE WHEN old IS NOT NULL AND NOT old.created_at < c.created_at
           THEN 'created at ' + toString(c.created_at) + ', not after the version it supersedes (' + old.id + ' at '
                + toString(old.created_at) + ')' END,
      CASE WHEN old IS NOT NULL AND old.valid_to IS NULL THEN 'supersedes ' + old.id + ', which has no valid_to' END,
      CASE WHEN old IS NOT NULL AND old.valid_to < old.valid_from
           THEN old.id + ' has valid_to ' + toString(old.valid_to) + ' before its valid_from ' + toString(old.valid_from) END
    ] WHERE x IS NOT NULL] AS problems
}
WITH c, problems
WHERE size(problems) > 0
WITH collect(c.id + ': ' + reduce(s = '', p IN problems | s + CASE WHEN s = '' THEN '' ELSE '; ' END + p)) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
