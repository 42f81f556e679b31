// name: dispute.list_disputes
// mode: read
// params: space, status
// description: disputes of the space (filter by status; null = any) with both claims
// :param space => 'default'
// :param status => 'open'
// The disputes of one key are dispute.key_disputes (a seek on the key, on every contested write).
MATCH (d:Dispute {space: $space})
USING INDEX d:Dispute(space, status)
WHERE d.status IS NOT NULL AND ($status IS NULL OR d.status = $status)
MATCH (d)-[:INCUMBENT]->(i:Claim)
MATCH (d)-[:CHALLENGER]->(h:Claim)
RETURN d {.id, .key, .status, .strategy, .reason, .winner, .resolved_by, .resolution, .rule,
          at: toString(d.at), resolved_at: toString(d.resolved_at)} AS dispute,
       i {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(i.created_at)} AS incumbent, h {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(h.created_at)} AS challenger
ORDER BY d.at, d.id
