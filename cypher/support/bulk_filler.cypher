// name: support.bulk_filler
// mode: write
// params: space, agent, at, rows
// description: bulk-load filler claims for the latency study, each with its first revision, its writer and one justification from existing premises (batched UNWIND)
// :param space => 'bench-latency'
// :param agent => 'bench:filler'
// :param at => '2026-12-02T10:00:00Z'
// :param rows => [{id: 'f-1', text: 'filler 1', premises: ['ep-1']}]
// Filler claims are ordinary active derived claims of the same space (same labels, same indexes),
// connected to the workspace through premises outside the region under study. Each is what
// support.create_derived writes for a keyless conclusion (its first revision, its writer's ASSERTED
// edge, its justification), so `db check` holds on a store they fill; only the embedding is left
// out, as they exist to make the graph big, not to be recalled.
MERGE (a:Agent {space: $space, id: $agent})
ON CREATE SET a.kind = 'system'
WITH a
UNWIND $rows AS row
CREATE (c:Claim:Active {space: $space, id: row.id})
SET c.text = row.text, c.kind = 'derived', c.status = 'active', c.agent = $agent,
    c.created_at = datetime($at), c.valid_from = datetime($at)
CREATE (a)-[:ASSERTED]->(c)
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, id: row.id + ':r0', claim: row.id, status: 'active',
        at: datetime($at), reason: 'derived'})
CREATE (j:Justification {space: $space, id: row.id + ':j', rule: 'filler', agent: $agent, created_at: datetime($at)})
CREATE (j)-[:JUSTIFIES]->(c)
WITH row, j
UNWIND row.premises AS pid
CALL (pid) {
  MATCH (p:Episode {space: $space, id: pid}) RETURN p
  UNION
  MATCH (p:Claim {space: $space, id: pid}) RETURN p
}
CREATE (p)-[:PREMISE_OF]->(j)
RETURN count(*) AS edges
