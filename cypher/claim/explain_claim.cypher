// name: claim.explain_claim
// mode: read
// params: space, id
// description: why memory holds a claim: agent, justifications with premises, version links, revisions, disputes
// :param space => 'default'
// :param id => 'c1'
MATCH (c:Claim {space: $space, id: $id})
CALL (c) {
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  CALL (j) {
    OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
    RETURN collect(p {.id, .text, .agent, .status, kind: CASE WHEN p:Episode THEN 'episode' ELSE 'claim' END}) AS premises
  }
  WITH j, premises WHERE j IS NOT NULL
  RETURN collect(j {.id, .rule, .agent, created_at: toString(j.created_at), premises: premises}) AS justifications
}
CALL (c) {
  OPTIONAL MATCH (c)-[:HAS_REVISION]->(r:Revision)
  WITH r ORDER BY r.at, coalesce(r.seq, 0), r.id
  RETURN collect(r {.status, .reason, .by, .audit, at: toString(r.at)}) AS revisions
}
CALL (c) {
  OPTIONAL MATCH (d:Dispute)-[role:INCUMBENT|CHALLENGER]->(c)
  RETURN collect(d {.id, .key, .status, .strategy, .reason, .winner, .resolved_by, .resolution, role: type(role), at: toString(d.at)}) AS disputes
}
OPTIONAL MATCH (newer:Claim)-[:SUPERSEDES]->(c)
OPTIONAL MATCH (c)-[:SUPERSEDES]->(older:Claim)
OPTIONAL MATCH (f:Fact)-[:CURRENT]->(c)
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(c.created_at),
          valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim,
       justifications, revisions, disputes, newer.id AS superseded_by, older.id AS supersedes, f IS NOT NULL AS current
