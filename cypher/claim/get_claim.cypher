// name: claim.get_claim
// mode: read
// params: space, id
// description: one claim by id, any status
// :param space => 'default'
// :param id => 'c-1'
MATCH (c:Claim {space: $space, id: $id})
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
       created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim
