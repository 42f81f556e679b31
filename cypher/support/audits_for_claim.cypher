// name: support.audits_for_claim
// mode: read
// params: space, id
// description: every audit that touched one claim or episode, oldest first, with what it did to it and why; no row when the space has no such claim or episode, one row with a null audit when nothing touched it
// :param space => 'default'
// :param id => 'c-1'
CALL () {
  MATCH (n:Claim {space: $space, id: $id}) RETURN n
  UNION
  MATCH (n:Episode {space: $space, id: $id}) RETURN n
}
OPTIONAL MATCH (a:Audit)-[r:ROOT|WITHDREW|RETAINED|REINSTATED|STALED|REFRESHED|REDERIVED]->(n)
WHERE a.space = $space
OPTIONAL MATCH (n)-[:HAS_REVISION]->(rev:Revision)
WHERE rev.audit = a.id
WITH a, r, collect(rev.status) AS statuses
ORDER BY a.at, a.id
RETURN CASE WHEN a IS NOT NULL THEN a {.id, .op, .mode, .reason, .agent, at: toString(a.at)} END AS audit, type(r) AS action,
       r.via AS via, r.lost AS lost, r.prior AS prior, statuses
