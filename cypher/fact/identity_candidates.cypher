// name: fact.identity_candidates
// mode: read
// params: space, prefixes, limit
// description: the facts under any of the given key prefixes that hold a current belief or are registered, with that belief and the registry's description: the candidates fact identity scores a proposed key against
// :param space => 'default'
// :param prefixes => ['user.', 'me.']
// :param limit => 2000
UNWIND $prefixes AS prefix
MATCH (f:Fact {space: $space})
USING INDEX f:Fact(space, key)
WHERE f.key STARTS WITH prefix
OPTIONAL MATCH (f)-[:CURRENT]->(c:Claim)
WITH f, c
WHERE c IS NOT NULL OR f.description IS NOT NULL
RETURN f.key AS key, f.description AS description, f.value_type AS value_type,
       c {.id, .value, .text, .agent, .status} AS current
ORDER BY key
LIMIT $limit
