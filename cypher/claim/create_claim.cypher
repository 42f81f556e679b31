// name: claim.create_claim
// mode: write
// params: space, id, key, value, text, kind, agent, agent_kind, confidence, created_at, valid_from, embedding, evidence, justification_id, rule, reason, status, props
// description: create one claim with its first revision, its writer and (optionally) one AND-justification from evidence ids (rule: 'evidence', or the derivation rule that wrote it)
// :param space => 'default'
// :param id => 'c-1'
// :param key => 'user.risk_tolerance'
// :param value => 'cautious'
// :param text => 'The user is cautious with money.'
// :param kind => 'semantic'
// :param agent => 'user:alice'
// :param agent_kind => 'user'
// :param confidence => 0.9
// :param created_at => '2026-12-02T10:00:00Z'
// :param valid_from => '2026-12-02T10:00:00Z'
// :param embedding => null
// :param evidence => []
// :param justification_id => 'j-1'
// :param rule => null
// :param reason => 'asserted'
// :param status => 'active'
// :param props => {}
MERGE (a:Agent {space: $space, id: $agent})
ON CREATE SET a.kind = $agent_kind
CREATE (c:Claim {space: $space, id: $id})
SET c.key = $key, c.value = $value, c.text = $text, c.kind = $kind, c.agent = $agent,
    c.status = $status, c.confidence = $confidence, c.created_at = datetime($created_at),
    c.valid_from = datetime($valid_from), c.embedding = $embedding
SET c += $props
CREATE (a)-[:ASSERTED]->(c)
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, id: $id + ':r0', claim: $id, status: $status, at: datetime($created_at), reason: $reason})
WITH c
CALL (c) {
  WITH c WHERE $key IS NOT NULL
  MATCH (f:Fact {space: $space, key: $key})
  CREATE (c)-[:VERSION_OF]->(f)
}
CALL (c) {
  WITH c WHERE size($evidence) > 0
  CREATE (j:Justification {space: $space, id: $justification_id, rule: coalesce($rule, 'evidence'), agent: $agent,
                          created_at: datetime($created_at)})
  CREATE (j)-[:JUSTIFIES]->(c)
  WITH j
  UNWIND $evidence AS eid
  CALL (eid) {
    MATCH (p:Episode {space: $space, id: eid}) RETURN p
    UNION
    MATCH (p:Claim {space: $space, id: eid}) RETURN p
  }
  CREATE (p)-[:PREMISE_OF]->(j)
}
RETURN c.id AS id
