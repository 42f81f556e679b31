// name: retrieval.hit_details
// mode: read
// params: space, ids, embedding, active_only
// description: for recalled claim ids: the claim, its cosine score against the query vector, provenance (agent, time, premises and episodes of its justifications) and support certificate (oldest current justification: every premise an episode not retracted or an active claim); with active_only, only claims active as read here (the status is read once and returned as read, so a claim superseded after the candidate search is dropped, never returned as active)
// :param space => 'default'
// :param ids => ['c-1', 'c-2']
// :param embedding => [0.1, 0.2]
// :param active_only => true
UNWIND $ids AS cid
MATCH (c:Claim {space: $space, id: cid})
WITH c, c.status AS status
WHERE NOT $active_only OR status = 'active'
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
CALL (c) {
  OPTIONAL MATCH (p)-[:PREMISE_OF]->(:Justification)-[:JUSTIFIES]->(c)
  WITH DISTINCT p WHERE p IS NOT NULL
  ORDER BY p.id
  RETURN collect(p.id) AS evidence,
         collect(CASE WHEN p:Episode THEN p {.id, .text, .agent, .conversation, at: toString(p.at)} END) AS episodes
}
RETURN c {.id, .key, .value, .text, .kind, .agent, status: status, .confidence,
       created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim,
       c.perspective AS perspective, c.inferred_from AS inferred_from,
       CASE WHEN c.embedding IS NULL OR size(c.embedding) <> size($embedding) THEN null
            ELSE vector.similarity.cosine(c.embedding, $embedding) END AS similarity,
       families, head(intact) AS certificate, evidence, episodes
