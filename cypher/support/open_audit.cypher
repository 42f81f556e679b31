// name: support.open_audit
// mode: write
// params: space, id, op, mode, reason, agent, at, roots, evaluate
// description: open one audit, link its roots, and retract them (op retract) or lift their retraction (op restore), each with an immutable Revision; other ops only link their roots
// :param space => 'default'
// :param id => 'a-1'
// :param op => 'retract'
// :param mode => 'justification'
// :param reason => 'the assay was contaminated'
// :param agent => 'user:reviewer'
// :param at => '2026-12-02T10:00:00Z'
// :param roots => ['ep-1']
// :param evaluate => true
// Statuses: an episode holds unless retracted; a claim holds unless withdrawn or retracted.
// A claim remembers the status it had while it held (prior_status: active, superseded or disputed)
// so that restoring it can put it back. Only an active current claim keeps active_key.
// op restore + evaluate: a restored claim is provisionally withdrawn; the fixpoint decides whether
// one of its justifications holds again. op restore without evaluate (mode none): it goes straight
// back (the current version of a fact becomes active; a version that lost CURRENT meanwhile becomes
// superseded). op derive (a withdrawn or stale claim that gained a justification), update (a write
// superseded its roots) and rule (a rule was added, changed, removed or run): the roots are only linked.
CREATE (a:Audit {space: $space, id: $id, op: $op, mode: $mode, reason: $reason, agent: $agent, at: datetime($at)})
WITH a
UNWIND $roots AS rid
CALL (rid) {
  MATCH (n:Episode {space: $space, id: rid}) RETURN n
  UNION
  MATCH (n:Claim {space: $space, id: rid}) RETURN n
}
OPTIONAL MATCH (f:Fact)-[:CURRENT]->(n)
WITH a, n, f, coalesce(n.status, 'active') AS before
CREATE (a)-[:ROOT {prior: before}]->(n)
WITH a, n, f, before,
     CASE
       WHEN $op = 'retract' THEN 'retracted'
       WHEN NOT $op IN ['retract', 'restore'] THEN before
       WHEN n:Episode THEN 'active'
       WHEN $evaluate THEN 'withdrawn'
       WHEN coalesce(n.prior_status, 'active') = 'active' AND n.key IS NOT NULL AND f IS NULL THEN 'superseded'
       ELSE coalesce(n.prior_status, 'active')
     END AS next
CALL (n, f, before, next) {
  WITH n, f, before, next WHERE $op IN ['retract', 'restore']
  SET n.status = next,
      n.active_key = CASE WHEN next = 'active' AND f IS NOT NULL THEN f.key ELSE null END,
      n.prior_status = CASE
        WHEN n:Episode OR NOT next IN ['withdrawn', 'retracted'] THEN null
        WHEN before IN ['withdrawn', 'retracted'] THEN n.prior_status
        ELSE before
      END
  REMOVE n:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
  // the status label (an episode carries only :Retracted; setting :Episode on it is a no-op)
  SET n:$(CASE WHEN n:Episode AND next <> 'retracted' THEN 'Episode' ELSE toUpper(left(next, 1)) + substring(next, 1) END)
  // A revision is dated at the audit, or at the claim's previous revision when that is later (a
  // writer whose clock is behind): `rev_at` keeps a claim's revision times monotone, and `seq`
  // orders revisions at one time as written (a restored claim's provisional 'withdrawn' here, the
  // fixpoint's verdict after it in support.apply_labels).
  SET n.rev_seq = coalesce(n.rev_seq, 0) + 1,
      n.rev_at = CASE WHEN coalesce(n.rev_at, n.created_at) > datetime($at) THEN coalesce(n.rev_at, n.created_at) ELSE datetime($at) END
  CREATE (n)-[:HAS_REVISION]->(:Revision {space: $space, seq: n.rev_seq, id: $id + ':root:' + n.id, claim: n.id, status: next,
          at: n.rev_at, audit: $id,
          reason: CASE
            WHEN $op = 'retract' THEN 'retracted: ' + $reason
            WHEN next = 'withdrawn' THEN 'retraction lifted, support re-evaluated: ' + $reason
            ELSE 'restored: ' + $reason
          END})
}
RETURN count(n) AS roots
