// name: policy.match_policy
// mode: read
// params: space, key
// description: the most specific strategy rule whose pattern matches a key (none: the default, recency)
// :param space => 'default'
// :param key => 'user.schedule.monday'
MATCH (r:PolicyRule {space: $space})
WHERE $key =~ r.regex
RETURN r {.pattern, .strategy, .specificity, .auto_authority_gap, .auto_corroboration, .auto_age_days, .auto_age_winner} AS rule
ORDER BY r.specificity DESC, r.pattern
LIMIT 1
