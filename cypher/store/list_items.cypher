// name: store.list_items
// mode: read
// params: space, prefix, skip, limit
// description: the current beliefs of the fact keys under a prefix, the most recently updated first, with the time of each fact's first version (the LangGraph store's search without a query)
// :param space => 'default'
// :param prefix => 'lg.users.'
// :param skip => 0
// :param limit => 10
MATCH (f:Fact {space: $space})
USING INDEX f:Fact(space, key)
WHERE f.key STARTS WITH $prefix
MATCH (f)-[:CURRENT]->(c:Claim {status: 'active'})
WITH f, c ORDER BY c.created_at DESC, f.key SKIP $skip LIMIT $limit
CALL (f) {
  MATCH (v:Claim)-[:VERSION_OF]->(f)
  RETURN min(v.created_at) AS first
}
RETURN f.key AS key, c.value AS value, c.id AS id, toString(first) AS created_at,
       toString(c.created_at) AS updated_at
ORDER BY c.created_at DESC, key
