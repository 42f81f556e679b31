// name: support.repair
// mode: write
// params: space, id, op, mode, reason, agent, at, roots, evaluate, force, waves, currency, run
// description: retract or restore in ONE statement: check the roots, open the audit, mark the region, run the least fixpoint, write the labels, settle the currency of the conclusions and return the audit; what does not fit (a fixpoint that needs more than $waves waves, keys whose belief changed) is returned pending for the caller to finish with the step statements
// :param space => 'default'
// :param id => 'a-1'
// :param op => 'retract'
// :param mode => 'justification'
// :param reason => 'the assay was contaminated'
// :param agent => 'user:reviewer'
// :param at => '2026-12-02T10:00:00Z'
// :param roots => ['ep-1']
// :param evaluate => true
// :param force => null
// :param waves => 64
// :param currency => true
// :param run => 'a-1:cu'
// Why one statement: a retract/restore of a 10-claim region was nine statements (find_nodes,
// open_audit, mark_region, fixpoint, apply_labels, currency.mark_region, fixpoint,
// currency.apply_labels, get_audit), each a client round trip costing more than its server work;
// this statement is the same steps in the same order, so the transaction is this round trip plus the
// commit, after support.lock_region (the locks on what it reads, taken first: docs/architecture.md,
// "Concurrency"). Each step below is the body of the step statement named in its comment, unchanged except
// for its parameter names ($audit and the support run are $id, the currency run is $run, the region
// is a list of nodes instead of element ids), for the roots (looked up once, in step 0, and passed on
// as `root_nodes`) and for the audit at the end (built from what the steps created, not read back):
// keep the copies in step. Every later step sees the writes of the earlier ones (Cypher's clause
// order; the planner places the Eager barriers).
// Step 0 (support.find_nodes): every root must name an episode or claim of the space, a retracted
// one for op restore and one not retracted for op retract; otherwise the statement returns no row
// and writes nothing (the caller reads the roots with find_nodes to name the error).
// Step 5 (support.fixpoint): at most min(region size, $waves) waves; if the last one still gained,
// `pending` is true, nothing after the fixpoint runs, and the caller goes on with support.fixpoint
// and support.apply_labels (region: `region_ids`) as before.
// Step 7 (the currency pass, services/currency.py Consequences._currency), only in mode
// justification and when no key is involved (no root has a key and no claim with a key was
// withdrawn or reinstated: then the rule engine has nothing to re-evaluate first, and the pass from
// the roots is the whole first settling round). Its fixpoint can be pending too (`cpending`,
// region `cregion_ids`): the caller finishes it with support.fixpoint and currency.apply_labels.
// `settled`: the currency pass ran here (`ckeys`: keys whose belief it changed: the caller settles
// them, rules first). `audit`/`entries` are what support.get_audit returns for the audit at the end of
// the statement: the entries come from the relationships the steps created (ROOT, WITHDREW, RETAINED,
// REINSTATED, STALED, REFRESHED, with the same properties; REDERIVED is never created here), each with
// its node's properties read at the end, in get_audit's order (action, then id).
// --- step 0: the roots (support.find_nodes)
CALL () {
  UNWIND $roots AS rid
  CALL (rid) {
    MATCH (n:Episode {space: $space, id: rid}) RETURN n
    UNION
    MATCH (n:Claim {space: $space, id: rid}) RETURN n
  }
  RETURN count(DISTINCT rid) AS found,
         count(CASE WHEN ($op = 'retract' AND coalesce(n.status, 'active') = 'retracted')
                      OR ($op = 'restore' AND coalesce(n.status, 'active') <> 'retracted') THEN 1 END) AS refused,
         collect(DISTINCT n.key) AS root_keys, collect(n) AS root_nodes
}
WITH root_keys, root_nodes WHERE found = size($roots) AND refused = 0
// --- step 1: the audit and its roots (support.open_audit)
CREATE (a:Audit {space: $space, id: $id, op: $op, mode: $mode, reason: $reason, agent: $agent, at: datetime($at)})
WITH a, root_keys, root_nodes
CALL (a, root_nodes) {
  UNWIND root_nodes AS n
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
    SET n:$(CASE WHEN n:Episode AND next <> 'retracted' THEN 'Episode' ELSE toUpper(left(next, 1)) + substring(next, 1) END)
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
  RETURN collect({action: 'ROOT', n: n, prior: before}) AS root_entries
}
// --- steps 2-4: the region, its justifications' counters, the seeds (support.mark_region)
CALL (root_nodes) {
  UNWIND CASE WHEN $evaluate THEN root_nodes ELSE [] END AS n
  MATCH (n)-[:PREMISE_OF|JUSTIFIES*0..]->(c:Claim)
  WITH DISTINCT c
  WHERE c.space = $space AND c.status <> 'retracted'
  SET c._rc = $id, c._rc_in = false
  RETURN collect(c) AS region
}
CALL (region) {
  UNWIND region AS c
  CALL (c) {
    OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
    CALL (j) {
      OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
      RETURN count(CASE WHEN p._rc = $id THEN 1 END) AS miss,
             count(CASE WHEN p._rc IS NULL AND p.status IN ['withdrawn', 'retracted'] THEN 1 END) > 0 AS dead
    }
    SET j._rc = $id, j._rc_miss = miss, j._rc_dead = dead
    RETURN count(j) AS families, count(CASE WHEN j IS NOT NULL AND miss = 0 AND NOT dead THEN 1 END) AS grounded
  }
  WITH c WHERE families = 0 OR grounded > 0
  SET c._rc_in = true, c:RcFrontier
  RETURN count(c) AS seeds
}
// --- step 5: the least fixpoint (support.fixpoint), mode justification only
CALL (region, seeds) {
  UNWIND CASE WHEN seeds > 0 AND $force IS NULL AND $mode = 'justification'
              THEN range(1, CASE WHEN size(region) < $waves THEN size(region) ELSE $waves END) ELSE [] END AS wave
  CALL (wave) {
    MATCH (p:RcFrontier)
    WHERE p._rc = $id
    REMOVE p:RcFrontier
    WITH p
    MATCH (p)-[:PREMISE_OF]->(j:Justification)-[:JUSTIFIES]->(d:Claim)
    WHERE j._rc = $id AND NOT j._rc_dead AND d._rc_in = false
    WITH j, d, count(*) AS completed
    SET j._rc_miss = j._rc_miss - completed
    WITH j, d
    WHERE j._rc_miss = 0
    WITH DISTINCT d
    SET d._rc_in = true, d:RcFrontier
    RETURN count(d) AS gained
  }
  RETURN collect(gained) AS gained
}
WITH a, root_keys, root_nodes, root_entries, region, size([g IN gained WHERE g > 0]) AS waves, size(gained) > 0 AND last(gained) > 0 AS pending
// --- step 6: the labels, the scratch marks removed, the audit's counts (support.apply_labels; with
// an empty region it is support.close_audit); skipped while the fixpoint is pending
CALL (a, region, pending) {
  UNWIND CASE WHEN pending THEN [] ELSE region END AS c
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
    CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, seq: c.rev_seq, id: $id + ':' + c.id, claim: c.id, status: 'withdrawn',
            at: c.rev_at, audit: $id, reason: 'lost every support: ' + $reason})
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
    CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, seq: c.rev_seq, id: $id + ':' + c.id, claim: c.id, status: back,
            at: c.rev_at, audit: $id, reason: 'support intact again: ' + $reason})
    CREATE (a)-[:REINSTATED {via: via}]->(c)
  }
  CALL (a, c, was_in, now_in, via) {
    WITH a, c, via WHERE was_in AND now_in
    CREATE (a)-[:RETAINED {via: via}]->(c)
  }
  WITH c, via, lost, CASE WHEN was_in AND NOT now_in THEN 'withdrew' WHEN NOT was_in AND now_in THEN 'reinstated'
                          WHEN was_in THEN 'retained' ELSE 'still_out' END AS action
  RETURN collect(c) AS labelled, collect(action) AS actions,
         collect(CASE WHEN action IN ['withdrew', 'reinstated'] THEN c.key END) AS keys,
         collect(CASE action WHEN 'withdrew' THEN {action: 'WITHDREW', n: c, lost: lost}
                             WHEN 'reinstated' THEN {action: 'REINSTATED', n: c, via: via}
                             WHEN 'retained' THEN {action: 'RETAINED', n: c, via: via} END) AS label_entries
}
CALL (labelled) {
  UNWIND labelled AS c
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  WHERE j._rc = $id
  REMOVE j._rc, j._rc_miss, j._rc_dead
  WITH DISTINCT c
  REMOVE c._rc, c._rc_in, c:RcFrontier
  RETURN count(c) AS cleared
}
FOREACH (_ IN CASE WHEN pending THEN [] ELSE [1] END |
  SET a.region = size(labelled), a.waves = waves,
      a.withdrew = size([x IN actions WHERE x = 'withdrew']),
      a.retained = size([x IN actions WHERE x = 'retained']),
      a.reinstated = size([x IN actions WHERE x = 'reinstated']))
WITH a, root_nodes, root_entries + label_entries AS made, region, waves, pending, root_keys + keys AS keys,
     $currency AND NOT pending AND size(root_keys + keys) = 0 AS settled
// --- step 7: the currency pass from the roots (currency.mark_region, support.fixpoint, currency.apply_labels)
CALL (settled, root_nodes) {
  UNWIND CASE WHEN settled THEN root_nodes ELSE [] END AS n
  MATCH (n)-[:PREMISE_OF|JUSTIFIES*0..]->(c:Claim)
  WITH DISTINCT c
  WHERE c.space = $space AND c.status IN ['active', 'stale']
  SET c._rc = $run, c._rc_in = false
  RETURN collect(c) AS cregion
}
CALL (cregion) {
  UNWIND cregion AS c
  CALL (c) {
    OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
    CALL (j) {
      OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
      RETURN count(CASE WHEN p._rc = $run THEN 1 END) AS miss,
             count(CASE WHEN p._rc IS NULL AND NOT ((p:Episode AND coalesce(p.status, 'active') <> 'retracted')
                                                    OR (p:Claim AND p.status = 'active')) THEN 1 END) > 0 AS dead
    }
    WITH j, miss, dead OR coalesce(j.retired, false) AS dead
    SET j._rc = $run, j._rc_miss = miss, j._rc_dead = dead
    RETURN count(j) AS families, count(CASE WHEN j IS NOT NULL AND miss = 0 AND NOT dead THEN 1 END) AS grounded
  }
  WITH c WHERE families = 0 OR grounded > 0
  SET c._rc_in = true, c:RcFrontier
  RETURN count(c) AS cseeds
}
CALL (cregion, cseeds) {
  UNWIND CASE WHEN cseeds > 0 THEN range(1, CASE WHEN size(cregion) < $waves THEN size(cregion) ELSE $waves END)
              ELSE [] END AS wave
  CALL (wave) {
    MATCH (p:RcFrontier)
    WHERE p._rc = $run
    REMOVE p:RcFrontier
    WITH p
    MATCH (p)-[:PREMISE_OF]->(j:Justification)-[:JUSTIFIES]->(d:Claim)
    WHERE j._rc = $run AND NOT j._rc_dead AND d._rc_in = false
    WITH j, d, count(*) AS completed
    SET j._rc_miss = j._rc_miss - completed
    WITH j, d
    WHERE j._rc_miss = 0
    WITH DISTINCT d
    SET d._rc_in = true, d:RcFrontier
    RETURN count(d) AS gained
  }
  RETURN collect(gained) AS cgained
}
WITH a, made, region, waves, pending, keys, settled, cregion, size(cgained) > 0 AND last(cgained) > 0 AS cpending
CALL (a, cregion, cpending) {
  UNWIND CASE WHEN cpending THEN [] ELSE cregion END AS c
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
            at: c.rev_at, audit: $id, reason: 'premises no longer current: ' + $reason})
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
            at: c.rev_at, audit: $id, reason: 'premises current again: ' + $reason})
    CREATE (a)-[:REFRESHED {via: via}]->(c)
  }
  WITH c, via, lost, CASE WHEN was AND NOT now THEN 'staled' WHEN NOT was AND now THEN 'refreshed' ELSE 'kept' END AS action
  RETURN collect(c) AS clabelled,
         collect(CASE action WHEN 'staled' THEN {action: 'STALED', n: c, lost: lost}
                             WHEN 'refreshed' THEN {action: 'REFRESHED', n: c, via: via} END) AS currency_entries,
         collect(CASE WHEN action <> 'kept' THEN c.key END) AS ckeys,
         collect(CASE WHEN action = 'staled' THEN c.id END) AS staled,
         collect(CASE WHEN action = 'refreshed' THEN c.id END) AS refreshed
}
CALL (clabelled) {
  UNWIND clabelled AS c
  OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
  WHERE j._rc = $run
  REMOVE j._rc, j._rc_miss, j._rc_dead
  WITH DISTINCT c
  REMOVE c._rc, c._rc_in, c:RcFrontier
  RETURN count(c) AS ccleared
}
FOREACH (_ IN CASE WHEN size(clabelled) > 0 THEN [1] ELSE [] END |
  SET a.staled = coalesce(a.staled, 0) + size(staled), a.refreshed = coalesce(a.refreshed, 0) + size(refreshed))
WITH a, made + currency_entries AS made, region, waves, pending, keys, settled, cregion, cpending, ckeys
// --- the audit (support.get_audit, from the relationships this statement created)
CALL (made) {
  UNWIND made AS e
  WITH e, e.n AS n
  ORDER BY e.action, n.id
  RETURN collect({action: e.action, id: n.id, kind: CASE WHEN n:Episode THEN 'episode' ELSE 'claim' END,
                  text: n.text, key: n.key, status: coalesce(n.status, 'active'), prior: e.prior, via: e.via, lost: e.lost,
                  rule: null, superseded: null}) AS entries
}
RETURN pending, CASE WHEN pending THEN [c IN region | elementId(c)] ELSE [] END AS region_ids, waves, keys,
       settled, cpending, CASE WHEN cpending THEN [c IN cregion | elementId(c)] ELSE [] END AS cregion_ids, ckeys,
       a {.id, .op, .mode, .reason, .agent, .region, .waves, .withdrew, .retained, .reinstated, .staled, .refreshed,
          .rederived, at: toString(a.at)} AS audit, entries
