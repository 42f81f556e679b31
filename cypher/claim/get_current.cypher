// name: claim.get_current
// mode: read
// params: space, key
// description: the claim a fact's CURRENT edge points to, whatever its status (active, stale, withdrawn, retracted)
// :param space => 'default'
// :param key => 'user.employer'
MATCH (:Fact {space: $space, key: $key})-[:CURRENT]->(c:Claim)
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
       created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim
