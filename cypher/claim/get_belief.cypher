// name: claim.get_belief
// mode: read
// params: space, key
// description: the one current belief for a fact key, if any
// :param space => 'default'
// :param key => 'user.risk_tolerance'
MATCH (:Fact {space: $space, key: $key})-[:CURRENT]->(c:Claim)
WHERE c.status = 'active'
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
       created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim
