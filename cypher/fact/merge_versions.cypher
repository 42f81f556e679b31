// name: fact.merge_versions
// mode: read
// params: space, keys
// description: every version of the given facts (the two keys of a merge), oldest first across both, with whether it is its fact's CURRENT claim, whether it is in a SUPERSEDES chain and whether anything rests on it
// :param space => 'default'
// :param keys => ['user.city', 'user.location.city']
// Creation times come back as epoch seconds + nanoseconds: two claims of different keys may be
// created in the same microsecond, and a chain needs strictly increasing times.
UNWIND $keys AS key
MATCH (f:Fact {space: $space, key: key})<-[:VERSION_OF]-(c:Claim)
RETURN key, c.id AS id, c.status AS status, c.agent AS agent, c.value AS value,
       c.created_at.epochSeconds AS seconds, c.created_at.nanosecond AS nanos,
       EXISTS { (f)-[:CURRENT]->(c) } AS current,
       EXISTS { (c)-[:SUPERSEDES]->(:Claim) } OR EXISTS { (:Claim)-[:SUPERSEDES]->(c) } AS chained
ORDER BY c.created_at, c.id
