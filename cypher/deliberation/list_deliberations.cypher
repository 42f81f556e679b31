// name: deliberation.list_deliberations
// mode: read
// params: space, limit
// description: the deliberations of a space, newest first, with their mode, proposal count and staleness (computed on read: a cited claim is no longer active)
// :param space => 'default'
// :param limit => 20
MATCH (d:Deliberation)
USING INDEX d:Deliberation(space, id)
WHERE d.space = $space AND d.id IS NOT NULL
WITH d ORDER BY d.at DESC, d.id DESC
LIMIT $limit
CALL (d) {
  OPTIONAL MATCH (x:Proposal)-[:ANSWERS]->(d)
  OPTIONAL MATCH (x)-[:CITES]->(c:Claim)
  RETURN count(DISTINCT x) AS proposals, count(DISTINCT CASE WHEN c.status <> 'active' THEN c END) AS stale_citations
}
RETURN d {.id, .query, .mode, at: toString(d.at)} AS deliberation, proposals, stale_citations
