// name: explore.show_history
// mode: read
// params: space, key
// description: a fact's history: every version, the SUPERSEDES chain, the current one, and each version's revisions
// :param space => 'default'
// :param key => 'user.risk_tolerance'
MATCH (f:Fact {space: $space, key: $key})<-[version:VERSION_OF]-(c:Claim)
OPTIONAL MATCH (f)-[current:CURRENT]->(c)
OPTIONAL MATCH (c)-[supersedes:SUPERSEDES]->(older:Claim)
OPTIONAL MATCH (c)-[revised:HAS_REVISION]->(r:Revision)
RETURN f, version, c, current, supersedes, older, revised, r
ORDER BY c.created_at, r.at, coalesce(r.seq, 0)
