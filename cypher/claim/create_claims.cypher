// name: claim.create_claims
// mode: write
// params: space, claims
// description: create claims, each with its first revision, its writer and (optionally) one AND-justification from evidence ids (rule 'evidence', or the derivation rule that wrote it); returns them
// :param space => 'default'
// :param claims => [{id: 'c-1', key: 'user.risk_tolerance', value: 'cautious', text: 'The user is cautious with money.', kind: 'semantic', agent: 'user:alice', agent_kind: 'user', confidence: 0.9, created_at: '2026-12-02T10:00:00Z', valid_from: '2026-12-02T10:00:00Z', embedding: null, evidence: [], justification_id: 'j-1', rule: null, reason: 'asserted', status: 'active', props: {}}]
// One row per claim (a write creates one; a rule round creates one per re-derived instance). A
// keyed claim gets its VERSION_OF edge here; which version is CURRENT is claim.set_current /
// claim.supersede_current's job, under the fact's lock. Every claim carries one status label
// (:Active, :Superseded, :Disputed, :Withdrawn, :Retracted, :Stale) next to `status`, set by the
// same statements that set `status` (docs/explore.md, "Status in Browser").
UNWIND $claims AS row
MERGE (a:Agent {space: $space, id: row.agent})
ON CREATE SET a.kind = row.agent_kind
CREATE (c:Claim {space: $space, id: row.id})
SET c.key = row.key, c.value = row.value, c.text = row.text, c.kind = row.kind, c.agent = row.agent,
    c.status = row.status, c.confidence = row.confidence, c.created_at = datetime(row.created_at),
    c.valid_from = datetime(row.valid_from), c.embedding = row.embedding
SET c += row.props
SET c:$(toUpper(left(row.status, 1)) + substring(row.status, 1))
CREATE (a)-[:ASSERTED]->(c)
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, id: row.id + ':r0', claim: row.id, status: row.status,
        at: datetime(row.created_at), reason: row.reason})
WITH c, row
CALL (c, row) {
  WITH c, row WHERE row.key IS NOT NULL
  MATCH (f:Fact {space: $space, key: row.key})
  CREATE (c)-[:VERSION_OF]->(f)
}
CALL (c, row) {
  WITH c, row WHERE size(row.evidence) > 0
  CREATE (j:Justification {space: $space, id: row.justification_id, rule: coalesce(row.rule, 'evidence'),
                           agent: row.agent, created_at: datetime(row.created_at)})
  CREATE (j)-[:JUSTIFIES]->(c)
  WITH j, row
  UNWIND row.evidence AS eid
  CALL (eid) {
    MATCH (p:Episode {space: $space, id: eid}) RETURN p
    UNION
    MATCH (p:Claim {space: $space, id: eid}) RETURN p
  }
  CREATE (p)-[:PREMISE_OF]->(j)
}
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
          created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim
