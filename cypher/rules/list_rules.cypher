// name: rules.list_rules
// mode: read
// params: space, name, all_versions
// description: the rules of a space (the active version of each, or every version with all_versions), with instance counts; name = null for every rule
// :param space => 'default'
// :param name => null
// :param all_versions => false
MATCH (r:Rule {space: $space})
USING INDEX r:Rule(space, status)
WHERE r.status IS NOT NULL AND ($name IS NULL OR r.name = $name) AND ($all_versions OR r.status = 'active')
WITH r ORDER BY r.name, r.version
CALL (r) {
  OPTIONAL MATCH (i:RuleInstance {space: $space, rule: r.name})
  USING INDEX i:RuleInstance(space, rule)
  WHERE r.status = 'active'
  RETURN count(i) AS instances, count(CASE WHEN i.status = 'resolved' THEN 1 END) AS resolved,
         count(CASE WHEN i.status = 'unresolved' THEN 1 END) AS unresolved
}
RETURN r {.name, .version, .status, .spec, created_at: toString(r.created_at)} AS rule, instances, resolved, unresolved
