// name: check.current_beliefs
// mode: read
// params: space, limit
// description: invariant: each fact has at most one CURRENT edge, to a claim of the same space and key that no newer version supersedes; when the fact has an active version CURRENT is on it; CURRENT is never on a superseded or disputed claim; only that active current claim carries active_key; every VERSION_OF edge joins a claim to the fact of its key
// Cost: one index seek on Fact(space, key), then each fact's CURRENT and VERSION_OF edges (linear
// in the space's facts + versions).
// :param space => 'default'
// :param limit => 100
MATCH (f:Fact)
WHERE f.space = $space AND f.key IS NOT NULL
CALL (f) {
  OPTIONAL MATCH (f)-[:CURRENT]->(cur)
  WITH collect(cur) AS curs
  OPTIONAL MATCH (v:Claim)-[:VERSION_OF]->(f)
  WITH curs, collect(v) AS versions
  WITH curs, versions, [v IN versions WHERE v.status = 'active'] AS actives, head(curs) AS cur
  RETURN [x IN [
      CASE WHEN size(curs) > 1 THEN 'CURRENT edges: ' + toString(size(curs)) END,
      CASE WHEN cur IS NOT NULL AND NOT (cur:Claim AND cur.space = $space AND cur.key = f.key)
           THEN 'CURRENT on ' + coalesce(cur.id, '?') + ', not a claim of this fact' END,
      CASE WHEN cur IS NOT NULL AND EXISTS { (:Claim)-[:SUPERSEDES]->(cur) }
           THEN 'CURRENT on ' + cur.id + ', which a newer version supersedes' END,
      CASE WHEN cur IS NOT NULL AND cur.status IN ['superseded', 'disputed']
           THEN 'CURRENT on ' + cur.id + ' (' + cur.status + ')' END,
      CASE WHEN size(actives) > 0 AND (cur IS NULL OR NOT cur IN actives)
           THEN 'active version ' + actives[0].id + ' is not CURRENT' END,
      CASE WHEN any(v IN versions WHERE v.key <> f.key OR v.space <> $space)
           THEN 'VERSION_OF from another key: ' + head([v IN versions WHERE v.key <> f.key OR v.space <> $space | v.id]) END,
      CASE WHEN any(v IN versions WHERE v.active_key IS NOT NULL AND NOT (v = cur AND v.status = 'active'))
           THEN 'active_key on ' + head([v IN versions WHERE v.active_key IS NOT NULL AND NOT (v = cur AND v.status = 'active') | v.id])
                + ', not the active current claim' END
    ] WHERE x IS NOT NULL] AS problems
}
WITH f, problems
WHERE size(problems) > 0
WITH collect(f.key + ': ' + reduce(s = '', p IN problems | s + CASE WHEN s = '' THEN '' ELSE '; ' END + p)) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
