// name: currency.stale_claims
// mode: read
// params: space, limit
// description: the stale conclusions of a space, newest first, each with the audit that made it stale (the premise change), the premises no longer current and, for a rule-derived claim, the premise key its join misses
// :param space => 'default'
// :param limit => 100
MATCH (c:Claim {space: $space, status: 'stale'})
WITH c ORDER BY c.created_at DESC, c.id DESC LIMIT $limit
CALL (c) {
  OPTIONAL MATCH (a:Audit)-[s:STALED]->(c)
  WITH a, s ORDER BY a.at DESC, a.id DESC LIMIT 1
  RETURN a, s
}
OPTIONAL MATCH (i:RuleInstance {space: $space, key: c.key})
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
          created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim,
       a {.id, .op, .reason, at: toString(a.at)} AS audit, s.lost AS lost,
       CASE WHEN a IS NULL THEN [] ELSE [(a)-[:ROOT]->(r) | r.id] END AS changed,
       i.rule AS rule, i.missing AS missing
