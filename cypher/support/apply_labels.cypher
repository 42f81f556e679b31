// name: support.apply_labels
// mode: write
// params: space, audit, at, reason, region, force, waves
// description: write the fixpoint's outcome on the region (withdrawn / retained / reinstated, with Revisions and audit edges saying why), remove the scratch marks, close the audit; returns the counts and the keys of the claims withdrawn or reinstated
// :param space => 'default'
// :param audit => 'a-1'
// :param at => '2026-12-02T10:00:00Z'
// :param reason => 'the assay was contaminated'
// :param region => ['4:abc:12']
// :param force => null
// :param waves => 2
// force = null takes each claim's computed label (_rc_in); true / false impose one label on the
// whole region (comparison mode influence: reinstate / withdraw everything reachable).
// A region claim held before unless it was withdrawn (region claims are never retracted).
// Reinstated claims go back to the status they had while they held; the current version of a
// fact becomes active again, a version that lost CURRENT meanwhile becomes superseded.
MATCH (a:Audit {space: $space, id: $audit})
UNWIND $region AS eid
MATCH (c:Claim) WHERE elementId(c) = eid
WITH a, c, c.status <> 'withdrawn' AS was_in, coalesce($force, c._rc_in) AS now_in
CALL (c) {
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  CALL (j) {
    OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
    RETURN collect(CASE WHEN (p._rc IS NOT NULL AND NOT p._rc_in) OR (p._rc IS NULL AND p.status IN ['withdrawn', 'retracted'])
                        THEN p.id END) AS missing
  }
  WITH j, missing WHERE j IS NOT NULL
  ORDER BY j.created_at, j.id
  RETURN collect(CASE WHEN size(missing) = 0 THEN j.id END) AS intact,
         collect(CASE WHEN size(missing) > 0 THEN j.id + ' lacks ' + reduce(s = '', m IN missing | s + CASE WHEN s = '' THEN '' ELSE ', ' END + m) END) AS lost
}
WITH a, c, was_in, now_in, head(intact) AS via, lost
CALL (a, c, was_in, now_in, lost) {
  WITH a, c, lost WHERE was_in AND NOT now_in
  SET c.prior_status = c.status, c.status = 'withdrawn'
  REMOVE c:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
  SET c:Withdrawn
  REMOVE c.active_key
  SET c.rev_seq = coalesce(c.rev_seq, 0) + 1,
      c.rev_at = CASE WHEN coalesce(c.rev_at, c.created_at) > datetime($at) THEN coalesce(c.rev_at, c.created_at) ELSE datetime($at) END
  CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, seq: c.rev_seq, id: $audit + ':' + c.id, claim: c.id, status: 'withdrawn',
          at: c.rev_at, audit: $audit, reason: 'lost every support: ' + $reason})
  CREATE (a)-[:WITHDREW {lost: lost}]->(c)
}
CALL (a, c, was_in, now_in, via) {
  WITH a, c, via WHERE NOT was_in AND now_in
  OPTIONAL MATCH (f:Fact)-[:CURRENT]->(c)
  WITH a, c, via, f,
       CASE
         WHEN coalesce(c.prior_status, 'active') = 'active' AND c.key IS NOT NULL AND f IS NULL THEN 'superseded'
         ELSE coalesce(c.prior_status, 'active')
       END AS back
  SET c.status = back, c.active_key = CASE WHEN back = 'active' AND f IS NOT NULL THEN f.key ELSE null END
  REMOVE c:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
  SET c:$(toUpper(left(back, 1)) + substring(back, 1))
  REMOVE c.prior_status
  SET c.rev_seq = coalesce(c.rev_seq, 0) + 1,
      c.rev_at = CASE WHEN coalesce(c.rev_at, c.created_at) > datetime($at) THEN coalesce(c.rev_at, c.created_at) ELSE datetime($at) END
  CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, seq: c.rev_seq, id: $audit + ':' + c.id, claim: c.id, status: back,
          at: c.rev_at, audit: $audit, reason: 'support intact again: ' + $reason})
  CREATE (a)-[:REINSTATED {via: via}]->(c)
}
CALL (a, c, was_in, now_in, via) {
  WITH a, c, via WHERE was_in AND now_in
  CREATE (a)-[:RETAINED {via: via}]->(c)
}
WITH a, c, CASE WHEN was_in AND NOT now_in THEN 'withdrew' WHEN NOT was_in AND now_in THEN 'reinstated'
                WHEN was_in THEN 'retained' ELSE 'still_out' END AS action
WITH a, collect(c) AS region, collect(action) AS actions,
     collect(CASE WHEN action IN ['withdrew', 'reinstated'] THEN c.key END) AS keys
CALL (region) {
  UNWIND region AS c
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  WHERE j._rc = $audit
  REMOVE j._rc, j._rc_miss, j._rc_dead
  WITH DISTINCT c
  REMOVE c._rc, c._rc_in, c:RcFrontier
  RETURN count(c) AS cleared
}
SET a.region = size(region), a.waves = $waves,
    a.withdrew = size([x IN actions WHERE x = 'withdrew']),
    a.retained = size([x IN actions WHERE x = 'retained']),
    a.reinstated = size([x IN actions WHERE x = 'reinstated'])
RETURN a.withdrew AS withdrew, a.retained AS retained, a.reinstated AS reinstated, keys, cleared
