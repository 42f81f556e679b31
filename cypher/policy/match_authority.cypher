// name: policy.match_authority
// mode: read
// params: space, key, agents
// description: per agent, the most specific authority rule for a key (exact agent beats '*', then pattern specificity)
// :param space => 'default'
// :param key => 'user.timezone'
// :param agents => ['agent-a', 'agent-b']
UNWIND $agents AS agent
CALL (agent) {
  MATCH (r:AuthorityRule {space: $space})
  WHERE (r.agent = agent OR r.agent = '*') AND $key =~ r.regex
  RETURN r
  ORDER BY CASE WHEN r.agent = agent THEN 1 ELSE 0 END DESC, r.specificity DESC, r.pattern
  LIMIT 1
}
RETURN agent, r.weight AS weight, r.pattern AS pattern, r.agent AS rule_agent
