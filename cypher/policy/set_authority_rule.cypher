// name: policy.set_authority_rule
// mode: write
// params: space, agent, pattern, regex, specificity, weight, at
// description: declare an agent's authority weight (0..1) on a key pattern (agent may be '*')
// :param space => 'default'
// :param agent => 'agent-a'
// :param pattern => 'user.timezone'
// :param regex => 'user\\.timezone'
// :param specificity => 13
// :param weight => 0.9
// :param at => '2026-01-01T00:00:00Z'
MERGE (r:AuthorityRule {space: $space, agent: $agent, pattern: $pattern})
ON CREATE SET r.created_at = datetime($at)
SET r.regex = $regex, r.specificity = $specificity, r.weight = $weight, r.updated_at = datetime($at)
RETURN r {.agent, .pattern, .weight, .specificity} AS rule
