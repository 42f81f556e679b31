// name: policy.list_authority_rules
// mode: read
// params: space
// description: every authority rule of the space
// :param space => 'default'
MATCH (r:AuthorityRule {space: $space})
USING INDEX r:AuthorityRule(space, agent, pattern)
WHERE r.agent IS NOT NULL AND r.pattern IS NOT NULL
RETURN r {.agent, .pattern, .weight, .specificity} AS rule
ORDER BY r.agent, r.specificity DESC, r.pattern
