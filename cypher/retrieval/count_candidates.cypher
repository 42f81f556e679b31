// name: retrieval.count_candidates
// mode: read
// params: space, perspective, interpretations, keys, prefix, include_inactive, at
// description: how many embedded claims of the space could pass the recall filters (exact now; with at, an upper bound: those created by then) - the over-fetch loop stops once it has found them all
// :param space => 'default'
// :param perspective => null
// :param interpretations => false
// :param keys => null
// :param prefix => null
// :param include_inactive => false
// :param at => null
MATCH (c:Claim {space: $space})
USING INDEX c:Claim(space, status)
WHERE c.status IS NOT NULL AND c.embedding IS NOT NULL
  AND CASE WHEN $perspective IS NULL THEN ($interpretations OR NOT c:Interpretation)
           ELSE (c:Interpretation AND c.perspective = $perspective) END
  AND ($keys IS NULL OR c.key IN $keys)
  AND ($prefix IS NULL OR c.key STARTS WITH $prefix)
  AND CASE WHEN $at IS NULL THEN ($include_inactive OR c.status = 'active')
           ELSE c.created_at <= datetime($at) END
RETURN count(c) AS n
