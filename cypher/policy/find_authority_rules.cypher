// name: policy.find_authority_rules
// mode: read
// params: space, agents
// description: the authority rules of the space for these agents and for '*' (the pattern is matched against the key in Python: keypatterns.match, linear time)
// :param space => 'default'
// :param agents => ['agent-a', 'agent-b']
MATCH (r:AuthorityRule {space: $space})
USING INDEX r:AuthorityRule(space, agent, pattern)
WHERE r.agent IN $agents + ['*'] AND r.pattern IS NOT NULL
RETURN r {.agent, .pattern, .weight, .specificity} AS rule
ORDER BY r.agent, r.specificity DESC, r.pattern
