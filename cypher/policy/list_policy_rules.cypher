// name: policy.list_policy_rules
// mode: read
// params: space
// description: every strategy rule of the space, most specific first
// :param space => 'default'
MATCH (r:PolicyRule {space: $space})
USING INDEX r:PolicyRule(space, pattern)
WHERE r.pattern IS NOT NULL
RETURN r {.pattern, .strategy, .specificity, .auto_authority_gap, .auto_corroboration, .auto_age_days, .auto_age_winner} AS rule
ORDER BY r.specificity DESC, r.pattern
