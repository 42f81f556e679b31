// name: dispute.key_disputes
// mode: read
// params: space, key, status
// description: the disputes of one key (filter by status; null = any) with both claims
// :param space => 'default'
// :param key => 'user.risk'
// :param status => 'open'
MATCH (d:Dispute {space: $space, key: $key})
USING INDEX SEEK d:Dispute(space, key)
WHERE $status IS NULL OR d.status = $status
MATCH (d)-[:INCUMBENT]->(i:Claim)
MATCH (d)-[:CHALLENGER]->(h:Claim)
RETURN d {.id, .key, .status, .strategy, .reason, .winner, .resolved_by, .resolution, .rule,
          at: toString(d.at), resolved_at: toString(d.resolved_at)} AS dispute,
       i {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(i.created_at)} AS incumbent, h {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(h.created_at)} AS challenger
ORDER BY d.at, d.id
