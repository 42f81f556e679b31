// name: argumentation.ground_small
// mode: write
// params: space, ns, max_arguments, max_attacks
// description: grounded labelling of a small namespace (at most max_arguments arguments, at most max_attacks attack edges into them) in one statement with no working state: the waves run over lists in memory, then each label is written with its mark (:In/:Out/:Undec) and wave only where it changed; returns the names by label; no row when the namespace is larger or empty (the caller then runs start_grounded)
// :param space => 'default'
// :param ns => 'dispute:user.city'
// :param max_arguments => 128
// :param max_attacks => 256
// For the frameworks deliberations and disputes solve (3-12 arguments) the wave loop of
// start_grounded costs more than the labelling: its plan has about 200 operators (counters, two
// batches of waves with the chain jump, two frontier look-ups, the finish), most of which run
// for nothing on 12 arguments, and it writes working properties (`state`, counters, `frontier`)
// that it removes again. Here the namespace is read once, each argument's attackers in the
// namespace become positions in the list `args` (O(n * attacks), fine for n <= max_arguments),
// and the waves are a `reduce` over lists: `st[i]` = 0 undecided, k IN at wave k, -k OUT at wave k.
// Wave k: an undecided argument whose attackers are all OUT is IN at k; an undecided argument
// attacked by such an argument is OUT at k; exactly the waves of start_grounded (an argument whose
// last attacker went OUT at wave k - 1 is on the frontier of wave k). A wave that labels nothing
// IN ends the loop (the remaining iterations return the list unchanged).
// The write: only arguments whose label, wave or mark differ are written (a re-solve that changes
// nothing writes nothing; the mark lines are those of start_grounded's finish).
// `LIMIT $max_arguments + 1`: a larger namespace costs max_arguments + 1 index entries here and
// returns no row (the constant columns of the RETURN are grouping keys: no group, no row). The
// attacks are bounded by the store degree (`COUNT { (a)<-[:ATTACKS]-() }`, O(1) per argument,
// an upper bound of the attacks from the namespace): a dense framework (the AFGen files: 20-40
// attacks per argument) is cheaper for start_grounded, whose work is linear in the attacks;
// measured on the corpus files of 33-128 arguments: sparse ones (1-3 attacks per argument)
// 25-40% faster here, the dense ones 3-5x slower.
CYPHER replan=skip
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
WITH a LIMIT $max_arguments + 1
WITH collect(a) AS args, sum(COUNT { (a)<-[:ATTACKS]-() }) AS degree
WITH args, size(args) AS n, degree
WHERE 0 < n <= $max_arguments AND degree <= $max_attacks
WITH args, n, [a IN args | [x IN [(a)<-[:ATTACKS]-(y) | y] WHERE x:Argument AND x.space = $space AND x.ns = $ns]] AS attackers
WITH args, n, reduce(s = 0, l IN attackers | s + size(l)) AS attacks,
     [l IN attackers | [x IN l | [i IN range(0, n - 1) WHERE args[i] = x][0]]] AS att
WITH args, n, attacks, reduce(st = [i IN range(0, n - 1) | 0], k IN range(1, n) |
  CASE WHEN k > 1 AND NOT (k - 1) IN st THEN st ELSE
  [i IN range(0, n - 1) |
    CASE
      WHEN st[i] <> 0 THEN st[i]
      WHEN all(j IN att[i] WHERE st[j] < 0) THEN k
      WHEN any(j IN att[i] WHERE st[j] = 0 AND all(x IN att[j] WHERE st[x] < 0)) THEN -k
      ELSE 0
    END] END) AS st
UNWIND range(0, n - 1) AS i
WITH args[i] AS a, attacks, CASE WHEN st[i] > 0 THEN 'IN' WHEN st[i] < 0 THEN 'OUT' ELSE 'UNDEC' END AS label,
     CASE WHEN st[i] <> 0 THEN abs(st[i]) END AS wave
CALL (a, label, wave) {
  WITH a, label, wave
  WHERE a.label IS NULL OR a.label <> label OR coalesce(a.wave, 0) <> coalesce(wave, 0)
     OR NOT CASE label WHEN 'IN' THEN a:In AND NOT a:Out AND NOT a:Undec
                       WHEN 'OUT' THEN a:Out AND NOT a:In AND NOT a:Undec
                       ELSE a:Undec AND NOT a:In AND NOT a:Out END
  SET a.label = label, a.wave = wave
  FOREACH (_ IN CASE WHEN label = 'IN' THEN [1] ELSE [] END | SET a:In REMOVE a:Out:Undec)
  FOREACH (_ IN CASE WHEN label = 'OUT' THEN [1] ELSE [] END | SET a:Out REMOVE a:In:Undec)
  FOREACH (_ IN CASE WHEN label = 'UNDEC' THEN [1] ELSE [] END | SET a:Undec REMOVE a:In:Out)
}
RETURN count(a) AS arguments, min(attacks) AS attacks, false AS pending, null AS next_wave,
       collect(CASE label WHEN 'IN' THEN a.name END) AS in_names,
       collect(CASE label WHEN 'OUT' THEN a.name END) AS out_names,
       collect(CASE label WHEN 'UNDEC' THEN a.name END) AS undec_names,
       coalesce(max(CASE label WHEN 'IN' THEN wave END), 0) AS waves, 0 AS unlabelled
