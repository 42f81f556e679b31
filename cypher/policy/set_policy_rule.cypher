// name: policy.set_policy_rule
// mode: write
// params: space, pattern, regex, specificity, strategy, auto_authority_gap, auto_corroboration, auto_age_days, auto_age_winner, at
// description: declare the conflict strategy (and auto-resolution rules) for a key pattern
// :param space => 'default'
// :param pattern => 'user.schedule.*'
// :param regex => 'user\\.schedule\\..*'
// :param specificity => 14
// :param strategy => 'authority'
// :param auto_authority_gap => null
// :param auto_corroboration => null
// :param auto_age_days => null
// :param auto_age_winner => null
// :param at => '2026-01-01T00:00:00Z'
MERGE (r:PolicyRule {space: $space, pattern: $pattern})
ON CREATE SET r.created_at = datetime($at)
SET r.regex = $regex, r.specificity = $specificity, r.strategy = $strategy,
    r.auto_authority_gap = $auto_authority_gap, r.auto_corroboration = $auto_corroboration,
    r.auto_age_days = $auto_age_days, r.auto_age_winner = $auto_age_winner, r.updated_at = datetime($at)
RETURN r {.pattern, .strategy, .specificity, .auto_authority_gap, .auto_corroboration, .auto_age_days, .auto_age_winner} AS rule
