// name: retrieval.count_candidates_capped
// mode: read
// params: space, perspective, interpretations, keys, prefix, include_inactive, at, cap
// description: like retrieval.count_candidates, but stops counting after $cap + 1 claims: is the space (with the recall filters) small enough for an exact scan? reads at most $cap + 1 index entries
// :param space => 'default'
// :param perspective => null
// :param interpretations => false
// :param keys => null
// :param prefix => null
// :param include_inactive => false
// :param at => null
// :param cap => 2000
MATCH (c:Claim)
WHERE c.space = $space AND c.id IS NOT NULL AND c.embedding IS NOT NULL
  AND CASE WHEN $perspective IS NULL THEN ($interpretations OR NOT c:Interpretation)
           ELSE (c:Interpretation AND c.perspective = $perspective) END
  AND ($keys IS NULL OR c.key IN $keys)
  AND ($prefix IS NULL OR c.key STARTS WITH $prefix)
  AND CASE WHEN $at IS NULL THEN ($include_inactive OR c.status = 'active')
           ELSE c.created_at <= datetime($at) END
WITH c LIMIT $cap + 1
RETURN count(c) AS n
