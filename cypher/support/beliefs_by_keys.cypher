// name: support.beliefs_by_keys
// mode: read
// params: space, keys
// description: the active current belief of each given fact key (exact key match), in the order of the keys
// :param space => 'default'
// :param keys => ['user.timezone']
UNWIND range(0, size($keys) - 1) AS i
MATCH (:Fact {space: $space, key: $keys[i]})-[:CURRENT]->(c:Claim)
WHERE c.status = 'active'
RETURN c.id AS id, i AS rank
ORDER BY i
