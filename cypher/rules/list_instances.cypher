// name: rules.list_instances
// mode: read
// params: space, name, status, limit
// description: the instances of a rule (status = null for all), each with the derived key's current claim
// :param space => 'default'
// :param name => 'work_timezone'
// :param status => null
// :param limit => 100
MATCH (i:RuleInstance {space: $space, rule: $name})
WHERE $status IS NULL OR i.status = $status
WITH i ORDER BY i.key LIMIT $limit
OPTIONAL MATCH (:Fact {space: $space, key: i.key})-[:CURRENT]->(c:Claim)
RETURN i {.rule, .key, .status, .anchor, .reads, .missing} AS instance,
       c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
          created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS belief
