// name: claim.corroborate_claim
// mode: write
// params: space, id, agent, agent_kind, justification_id, evidence, at
// description: another agent asserts the same value: an independent justification (OR) of the current claim
// :param space => 'default'
// :param id => 'c1'
// :param agent => 'agent-b'
// :param agent_kind => 'agent'
// :param justification_id => 'j2'
// :param evidence => []
// :param at => '2026-01-01T00:00:00Z'
// A base claim (no justification) that is corroborated first gets an empty justification of its
// own ("asserted" by its writer, at its creation time): its support must not come to depend on the
// corroborator's evidence, or retracting that evidence would withdraw a belief that never rested on it.
MERGE (a:Agent {space: $space, id: $agent})
ON CREATE SET a.kind = $agent_kind
WITH a
MATCH (c:Claim {space: $space, id: $id})
CALL (c) {
  WITH c WHERE NOT EXISTS { (:Justification)-[:JUSTIFIES]->(c) }
  CREATE (:Justification {space: $space, id: $justification_id + ':asserted', rule: 'asserted', agent: c.agent,
          created_at: c.created_at})-[:JUSTIFIES]->(c)
}
CREATE (j:Justification {space: $space, id: $justification_id, rule: 'corroboration', agent: $agent, created_at: datetime($at)})
CREATE (j)-[:JUSTIFIES]->(c)
CREATE (a)-[:CORROBORATED {at: datetime($at)}]->(c)
WITH c, j
CALL (j) {
  UNWIND $evidence AS eid
  CALL (eid) {
    MATCH (p:Episode {space: $space, id: eid}) RETURN p
    UNION
    MATCH (p:Claim {space: $space, id: eid}) RETURN p
  }
  CREATE (p)-[:PREMISE_OF]->(j)
  RETURN count(*) AS premises
}
RETURN c.id AS id, j.id AS justification, premises
