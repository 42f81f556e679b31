// name: fact.list_keys
// mode: read
// params: space, prefix
// description: known fact keys (optionally under a prefix) with description and current value; an alias (a key merged into another) names its target
// :param space => 'default'
// :param prefix => null
MATCH (f:Fact {space: $space})
USING INDEX f:Fact(space, key)
WHERE f.key IS NOT NULL AND ($prefix IS NULL OR f.key STARTS WITH $prefix)
OPTIONAL MATCH (f)-[:CURRENT]->(c:Claim {status: 'active'})
RETURN f.key AS key, f.description AS description, f.value_type AS value_type, c.value AS value, c.id AS current,
       f.merged_into AS merged_into
ORDER BY key
