// name: fact.resolve_key
// mode: read
// params: space, key
// description: the key a fact is stored under: the end of its MERGED_INTO chain (bg.keys.merge), or null when it is not an alias
// :param space => 'default'
// :param key => 'user.city'
// A merge re-points the aliases of its source at the new target, so chains have one hop; the walk
// is bounded all the same.
MATCH (f:Fact {space: $space, key: $key})
OPTIONAL MATCH (f)-[:MERGED_INTO*1..32]->(t:Fact)
WHERE NOT EXISTS { (t)-[:MERGED_INTO]->() }
RETURN f.key AS key, t.key AS target
LIMIT 1
