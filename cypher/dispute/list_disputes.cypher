// name: dispute.list_disputes
// mode: read
// params: space, status, key
// description: disputes of the space (filter by status and key; null = any) with both claims
// :param space => 'default'
// :param status => 'open'
// :param key => null
MATCH (d:Dispute {space: $space})
WHERE ($status IS NULL OR d.status = $status) AND ($key IS NULL OR d.key = $key)
MATCH (d)-[:INCUMBENT]->(i:Claim)
MATCH (d)-[:CHALLENGER]->(h:Claim)
RETURN d {.id, .key, .status, .strategy, .reason, .winner, .resolved_by, .resolution, .rule,
          at: toString(d.at), resolved_at: toString(d.resolved_at)} AS dispute,
       i {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(i.created_at)} AS incumbent, h {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(h.created_at)} AS challenger
ORDER BY d.at, d.id
