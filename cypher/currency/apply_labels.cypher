// name: currency.apply_labels
// mode: write
// params: space, audit, run, at, reason, region
// description: write the currency fixpoint's outcome on the region (stale / current again, with Revisions and audit edges naming the premises no longer current), remove the scratch marks; returns the claims made stale and current again, and the keys whose belief changed
// :param space => 'default'
// :param audit => 'a-1'
// :param run => 'a-1:cu1'
// :param at => '2026-12-02T10:00:00Z'
// :param reason => "user.employer: 'acme' -> 'globex'"
// :param region => ['4:abc:12']
// A region claim was current iff it was active. active -> not current: stale (it keeps CURRENT, it
// loses active_key, so belief(key) no longer returns it), a revision and (audit)-[:STALED {lost}].
// stale -> current: active again (superseded when it lost CURRENT meanwhile), a revision and
// (audit)-[:REFRESHED {via}]. lost names, for each justification, the premises that are not
// current and their status. $run names this pass (one audit may run several: its revisions are
// $run:<claim id>); the marks of support.fixpoint carry it too.
MATCH (a:Audit {space: $space, id: $audit})
UNWIND $region AS eid
MATCH (c:Claim) WHERE elementId(c) = eid
WITH a, c, c.status = 'active' AS was, c._rc_in AS now
CALL (c) {
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  CALL (j) {
    OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
    RETURN collect(CASE WHEN (p._rc IS NOT NULL AND NOT p._rc_in)
                          OR (p._rc IS NULL AND NOT ((p:Episode AND coalesce(p.status, 'active') <> 'retracted')
                                                     OR (p:Claim AND p.status = 'active')))
                        THEN p.id + ' (' + CASE WHEN p._rc IS NOT NULL THEN 'stale' ELSE coalesce(p.status, 'active') END + ')' END) AS missing
  }
  WITH j, missing WHERE j IS NOT NULL
  ORDER BY j.created_at, j.id
  RETURN collect(CASE WHEN size(missing) = 0 AND NOT coalesce(j.retired, false) THEN j.id END) AS live,
         collect(CASE WHEN size(missing) > 0 THEN j.id + ' lacks ' + reduce(s = '', m IN missing | s + CASE WHEN s = '' THEN '' ELSE ', ' END + m)
                      WHEN coalesce(j.retired, false) THEN j.id + ' retired (' + coalesce(j.rule, 'no rule') + ')' END) AS lost
}
WITH a, c, was, now, head(live) AS via, lost
CALL (a, c, was, now, lost) {
  WITH a, c, lost WHERE was AND NOT now
  SET c.status = 'stale'
  REMOVE c:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
  SET c:Stale
  REMOVE c.active_key
  SET c.rev_seq = coalesce(c.rev_seq, 0) + 1,
      c.rev_at = CASE WHEN coalesce(c.rev_at, c.created_at) > datetime($at) THEN coalesce(c.rev_at, c.created_at) ELSE datetime($at) END
  CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, seq: c.rev_seq, id: $run + ':' + c.id, claim: c.id, status: 'stale',
          at: c.rev_at, audit: $audit, reason: 'premises no longer current: ' + $reason})
  CREATE (a)-[:STALED {lost: lost}]->(c)
}
CALL (a, c, was, now, via) {
  WITH a, c, via WHERE NOT was AND now
  OPTIONAL MATCH (f:Fact)-[:CURRENT]->(c)
  WITH a, c, via, f, CASE WHEN c.key IS NOT NULL AND f IS NULL THEN 'superseded' ELSE 'active' END AS back
  SET c.status = back, c.active_key = CASE WHEN back = 'active' AND f IS NOT NULL THEN f.key ELSE null END
  REMOVE c:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
  SET c:$(toUpper(left(back, 1)) + substring(back, 1))
  SET c.rev_seq = coalesce(c.rev_seq, 0) + 1,
      c.rev_at = CASE WHEN coalesce(c.rev_at, c.created_at) > datetime($at) THEN coalesce(c.rev_at, c.created_at) ELSE datetime($at) END
  CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, seq: c.rev_seq, id: $run + ':' + c.id, claim: c.id, status: back,
          at: c.rev_at, audit: $audit, reason: 'premises current again: ' + $reason})
  CREATE (a)-[:REFRESHED {via: via}]->(c)
}
WITH a, c, CASE WHEN was AND NOT now THEN 'staled' WHEN NOT was AND now THEN 'refreshed' ELSE 'kept' END AS action
WITH a, collect(c) AS region, collect(action) AS actions,
     collect(CASE WHEN action <> 'kept' THEN c.key END) AS keys,
     collect(CASE WHEN action = 'staled' THEN c.id END) AS staled,
     collect(CASE WHEN action = 'refreshed' THEN c.id END) AS refreshed
CALL (region) {
  UNWIND region AS c
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  WHERE j._rc = $run
  REMOVE j._rc, j._rc_miss, j._rc_dead
  WITH DISTINCT c
  REMOVE c._rc, c._rc_in, c:RcFrontier
  RETURN count(c) AS cleared
}
SET a.staled = coalesce(a.staled, 0) + size(staled), a.refreshed = coalesce(a.refreshed, 0) + size(refreshed)
RETURN staled, refreshed, keys, cleared
