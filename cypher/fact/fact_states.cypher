// name: fact.fact_states
// mode: read
// params: space, keys
// description: for each key: whether its fact exists, the key it was merged into (an alias), its value type, whether it is registered, how many versions it holds and the active rule that derives it, if any
// :param space => 'default'
// :param keys => ['user.city', 'user.location.city']
UNWIND $keys AS key
OPTIONAL MATCH (f:Fact {space: $space, key: key})
CALL (key) {
  OPTIONAL MATCH (r:Rule {space: $space, status: 'active'})
  WHERE key =~ r.conclusion_regex
  RETURN r.name + '@' + toString(r.version) AS rule
  LIMIT 1
}
RETURN key, rule, f IS NOT NULL AS exists, f.merged_into AS alias, f.value_type AS value_type,
       coalesce(f.registered, false) AS registered,
       CASE WHEN f IS NULL THEN 0 ELSE COUNT { (f)<-[:VERSION_OF]-(:Claim) } END AS versions
