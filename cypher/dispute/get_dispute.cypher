// name: dispute.get_dispute
// mode: read
// params: space, id
// description: one dispute with both claims
// :param space => 'default'
// :param id => 'd1'
MATCH (d:Dispute {space: $space, id: $id})
MATCH (d)-[:INCUMBENT]->(i:Claim)
MATCH (d)-[:CHALLENGER]->(h:Claim)
RETURN d {.id, .key, .status, .strategy, .reason, .winner, .resolved_by, .resolution, .rule,
          at: toString(d.at), resolved_at: toString(d.resolved_at)} AS dispute,
       i {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(i.created_at)} AS incumbent, h {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(h.created_at)} AS challenger
