// name: argumentation.start_grounded
// mode: write
// params: space, ns, last_wave
// description: grounded labelling in one statement when it fits: set the counters (old labels cleared, unattacked arguments on the wave-1 frontier), run waves 1..last_wave server-side, and when no frontier is left label the rest UNDEC and return the names by label; otherwise return pending = true (continue with propagate_waves and finish_grounded); O(arguments + attacks)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param last_wave => 32
// One statement instead of three (init, first batch of waves, finish): the small frameworks that
// make up most uses (a dispute, a deliberation, the corpus: at most 4 waves) are dominated by the
// fixed cost of each statement, so they now cost one statement plus the commit.
// Step 1 (counters): `undefeated` := number of incoming attack EDGES from the namespace (several
// edges between one pair count once each; the waves decrement per edge too), so it reaches 0
// exactly when every attacker is OUT; `frontier` is set only where a wave will look for it. The
// attackers come from an unconstrained pattern comprehension filtered afterwards and the scan
// carries the index hint, so the planner can only expand from `a` (with the empty statistics of a
// fresh store it otherwise chose a label scan of all arguments per argument: quadratic).
// Step 2 (waves): exactly the body of propagate_waves (see there; keep the two in step).
// Step 3 (finish, only when no frontier is left): exactly finish_grounded.
CALL () {
  MATCH (a:Argument {space: $space, ns: $ns})
  USING INDEX a:Argument(space, ns)
  WITH a, size([x IN [(a)<-[:ATTACKS]-(y) | y] WHERE x:Argument AND x.space = $space AND x.ns = $ns]) AS attackers
  SET a.label = null, a.wave = null, a.undefeated = attackers,
      a.frontier = CASE WHEN attackers = 0 THEN 1 END
  RETURN count(a) AS arguments, sum(attackers) AS attacks
}
CALL () {
  UNWIND range(1, $last_wave) AS k
  CALL (k) {
    MATCH (c:Argument)
    USING INDEX SEEK c:Argument(space, ns, frontier)
    WHERE c.space = $space AND c.ns = $ns AND c.frontier = k
    SET c.label = 'IN', c.wave = k, c.frontier = null
    WITH c
    UNWIND [(c)-[:ATTACKS]->(y) | y] AS t
    WITH DISTINCT t
    WHERE t:Argument AND t.label IS NULL AND t.space = $space AND t.ns = $ns
    SET t.label = 'OUT', t.wave = k
    WITH t
    UNWIND [(t)-[:ATTACKS]->(y) | y] AS u
    WITH u
    WHERE u:Argument AND u.label IS NULL AND u.space = $space AND u.ns = $ns
    WITH u, u.undefeated - count(*) AS left
    SET u.undefeated = left, u.frontier = CASE WHEN left = 0 THEN k + 1 END
  }
  RETURN count(*) AS iterations
}
WITH arguments, attacks, COUNT {
  MATCH (f:Argument)
  USING INDEX SEEK f:Argument(space, ns, frontier)
  WHERE f.space = $space AND f.ns = $ns AND f.frontier = $last_wave + 1
} > 0 AS pending
CALL (pending) {
  MATCH (a:Argument {space: $space, ns: $ns})
  USING INDEX a:Argument(space, ns)
  WHERE NOT pending
  FOREACH (_ IN CASE WHEN a.label IS NULL THEN [1] ELSE [] END | SET a.label = 'UNDEC')
  RETURN collect(CASE a.label WHEN 'IN' THEN a.name END) AS in_names,
         collect(CASE a.label WHEN 'OUT' THEN a.name END) AS out_names,
         collect(CASE a.label WHEN 'UNDEC' THEN a.name END) AS undec_names,
         coalesce(max(CASE a.label WHEN 'IN' THEN a.wave END), 0) AS waves
}
RETURN arguments, attacks, pending, in_names, out_names, undec_names, waves, 0 AS unlabelled
