// name: support.certificates
// mode: read
// params: space, ids
// description: for active claims, the support certificate: the oldest current justification (every premise current: an episode not retracted, a claim active) with its premises (null for a base claim)
// :param space => 'default'
// :param ids => ['c-1', 'c-2']
UNWIND $ids AS cid
MATCH (c:Claim {space: $space, id: cid})
WHERE c.status = 'active'
CALL (c) {
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  CALL (j) {
    OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
    WITH p WHERE p IS NOT NULL
    ORDER BY p.id
    RETURN collect(p {.id, .text, status: coalesce(p.status, 'active'), kind: CASE WHEN p:Episode THEN 'episode' ELSE 'claim' END}) AS premises,
           count(CASE WHEN NOT ((p:Episode AND coalesce(p.status, 'active') <> 'retracted')
                                OR (p:Claim AND p.status = 'active')) THEN 1 END) AS out
  }
  WITH j, premises, out WHERE j IS NOT NULL
  ORDER BY j.created_at, j.id
  RETURN count(j) AS families,
         collect(CASE WHEN out = 0 AND NOT coalesce(j.retired, false)
                      THEN j {.id, .rule, .agent, created_at: toString(j.created_at), premises: premises} END) AS intact
}
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
       created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim,
       families, head(intact) AS certificate
