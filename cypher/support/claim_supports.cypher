// name: support.claim_supports
// mode: read
// params: space, id
// description: a claim's support families (its immutable AND-justifications) with every premise and whether it holds
// :param space => 'default'
// :param id => 'c-1'
MATCH (c:Claim {space: $space, id: $id})
CALL (c) {
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  CALL (j) {
    OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
    WITH p WHERE p IS NOT NULL
    ORDER BY p.id
    RETURN collect(p {.id, .text, .key, .value, status: coalesce(p.status, 'active'),
                      kind: CASE WHEN p:Episode THEN 'episode' ELSE 'claim' END}) AS premises
  }
  WITH j, premises WHERE j IS NOT NULL
  ORDER BY j.created_at, j.id
  RETURN collect(j {.id, .rule, .agent, created_at: toString(j.created_at), premises: premises}) AS families
}
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
       created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim, families
