// name: support.create_derived
// mode: write
// params: space, id, sig, key, value, text, kind, agent, agent_kind, confidence, created_at, embedding, justification_id, rule, premises, props
// description: create one derived claim (active) with its first revision, its writer and its first AND-justification; returns the premises that are not current (a new conclusion needs current ones)
// :param space => 'default'
// :param id => 'c-2'
// :param sig => '3f2a9c'
// :param key => null
// :param value => null
// :param text => 'The user can afford a growth fund.'
// :param kind => 'derived'
// :param agent => 'agent:planner'
// :param agent_kind => 'agent'
// :param confidence => null
// :param created_at => '2026-12-02T10:00:00Z'
// :param embedding => null
// :param justification_id => 'j-2'
// :param rule => 'planner'
// :param premises => ['ep-1', 'c-1']
// :param props => {}
// The PREMISE_OF edges are created before the premises' statuses are read: creating an edge
// write-locks both ends, so a concurrent reconsolidation or update of a premise serializes with this
// write; out = the premises that are not current once locked (an episode retracted, a claim not active).
MERGE (a:Agent {space: $space, id: $agent})
ON CREATE SET a.kind = $agent_kind
CREATE (c:Claim:Active {space: $space, id: $id})
SET c.sig = $sig, c.key = $key, c.value = $value, c.text = $text, c.kind = $kind, c.agent = $agent, c.status = 'active',
    c.confidence = $confidence, c.created_at = datetime($created_at), c.valid_from = datetime($created_at),
    c.embedding = $embedding
SET c += $props
CREATE (a)-[:ASSERTED]->(c)
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, id: $id + ':r0', claim: $id, status: 'active', at: datetime($created_at), reason: 'derived'})
CREATE (j:Justification {space: $space, id: $justification_id, rule: $rule, agent: $agent, created_at: datetime($created_at)})
CREATE (j)-[:JUSTIFIES]->(c)
WITH c, j
CALL (c) {
  WITH c WHERE $key IS NOT NULL
  MATCH (f:Fact {space: $space, key: $key})
  CREATE (c)-[:VERSION_OF]->(f)
}
CALL (j) {
  UNWIND $premises AS pid
  CALL (pid) {
    MATCH (p:Episode {space: $space, id: pid}) RETURN p
    UNION
    MATCH (p:Claim {space: $space, id: pid}) RETURN p
  }
  CREATE (p)-[:PREMISE_OF]->(j)
  RETURN collect(CASE WHEN NOT ((p:Episode AND coalesce(p.status, 'active') <> 'retracted') OR (p:Claim AND p.status = 'active'))
                      THEN p.id END) AS out
}
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
         created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim,
       j.id AS justification, out
