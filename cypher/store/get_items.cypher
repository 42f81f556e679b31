// name: store.get_items
// mode: read
// params: space, keys
// description: the current belief of each of these fact keys, with the time of the fact's first version (the LangGraph store's items)
// :param space => 'default'
// :param keys => ['lg.users.alice.theme']
MATCH (f:Fact {space: $space})
USING INDEX f:Fact(space, key)
WHERE f.key IN $keys
MATCH (f)-[:CURRENT]->(c:Claim {status: 'active'})
CALL (f) {
  MATCH (v:Claim)-[:VERSION_OF]->(f)
  RETURN min(v.created_at) AS first
}
RETURN f.key AS key, c.value AS value, c.id AS id, toString(first) AS created_at,
       toString(c.created_at) AS updated_at
ORDER BY key
