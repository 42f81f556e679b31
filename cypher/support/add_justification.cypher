// name: support.add_justification
// mode: write
// params: space, claim_id, justification_id, rule, agent, created_at, premises
// description: add one immutable AND-justification (an alternative, OR) to an existing claim; returns the premises that do not hold
// :param space => 'default'
// :param claim_id => 'c-2'
// :param justification_id => 'j-3'
// :param rule => 'second opinion'
// :param agent => 'agent:planner'
// :param created_at => '2026-12-02T10:00:00Z'
// :param premises => ['ep-2']
MATCH (c:Claim {space: $space, id: $claim_id})
CREATE (j:Justification {space: $space, id: $justification_id, rule: $rule, agent: $agent, created_at: datetime($created_at)})
CREATE (j)-[:JUSTIFIES]->(c)
WITH c, j
CALL (j) {
  UNWIND $premises AS pid
  CALL (pid) {
    MATCH (p:Episode {space: $space, id: pid}) RETURN p
    UNION
    MATCH (p:Claim {space: $space, id: pid}) RETURN p
  }
  CREATE (p)-[:PREMISE_OF]->(j)
  RETURN collect(CASE WHEN p.status IN ['withdrawn', 'retracted'] THEN p.id END) AS out
}
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
         created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim,
       j.id AS justification, out
