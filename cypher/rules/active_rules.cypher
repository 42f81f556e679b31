// name: rules.active_rules
// mode: read
// params: space
// description: the active rule versions of a space with their specs, without instance counts (the rule engine orders a change's re-evaluation by the rule graph they form)
// :param space => 'default'
MATCH (r:Rule {space: $space, status: 'active'})
USING INDEX SEEK r:Rule(space, status)
RETURN r.name AS name, r.version AS version, r.spec AS spec
ORDER BY name
