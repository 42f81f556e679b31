// name: argumentation.start_grounded
// mode: write
// params: space, ns, last_wave
// description: grounded labelling in one statement when it fits: set the counters and chain links (unattacked arguments on the wave-1 frontier), run waves 1..last_wave server-side, and when no frontier is left label the rest UNDEC and return the names by label; otherwise return pending = true (continue with propagate_waves and finish_grounded); O(arguments + attacks)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param last_wave => 32
// One statement instead of three (init, first batch of waves, finish): the small frameworks that
// make up most uses (a dispute, a deliberation, the corpus: at most 4 waves) are dominated by the
// fixed cost of each statement, so they now cost one statement plus the commit.
// Step 1 (counters): `undefeated` := number of incoming attack EDGES from the namespace (several
// edges between one pair count once each; the waves decrement per edge too), so it reaches 0
// exactly when every attacker is OUT; `frontier` is set only where a wave will look for it;
// `link` := true when the argument has exactly one attacker in the namespace (not itself) and
// that attacker has no other attack edge at all (its degree is read from the store: O(1)), the
// condition for the chain jump (see propagate_waves). The stored `label`/`wave` are not cleared:
// the waves work on `state`, and step 3 writes `label` only where it changed. The
// attackers come from an unconstrained pattern comprehension filtered afterwards and the scan
// carries the index hint, so the planner can only expand from `a` (with the empty statistics of a
// fresh store it otherwise chose a label scan of all arguments per argument: quadratic).
// Step 2 (waves): exactly the body of propagate_waves (see there; keep the two in step).
// Step 3 (finish, only when no frontier is left): exactly finish_grounded.
// `pending` / `next_wave`: the smallest frontier wave beyond last_wave (a chain jump can put it
// far ahead); the caller continues there with propagate_waves.
// `CYPHER replan=skip`: the plan is pinned by hints and pattern comprehensions, so a replan can
// only cost time: while frameworks are imported and solved, the statistics of the (space, ns,
// frontier) index change all the time and Neo4j replanned this large statement over and over
// (52 discarded plans in one 4-minute bench run; about 0.2-1 s each).
CYPHER replan=skip
CALL () {
  MATCH (a:Argument {space: $space, ns: $ns})
  USING INDEX a:Argument(space, ns)
  WITH a, [x IN [(a)<-[:ATTACKS]-(y) | y] WHERE x:Argument AND x.space = $space AND x.ns = $ns] AS attackers
  WITH a, size(attackers) AS attackers, CASE WHEN size(attackers) = 1 AND attackers[0] <> a THEN attackers[0] END AS only
  SET a.state = null, a.undefeated = attackers,
      a.link = CASE WHEN only IS NOT NULL AND COUNT { (only)-[:ATTACKS]->() } = 1 THEN true END,
      a.frontier = CASE WHEN attackers = 0 THEN 1 END
  RETURN count(a) AS arguments, sum(attackers) AS attacks
}
CALL () {
  UNWIND range(1, $last_wave) AS k
  CALL (k) {
    // wave k begins
    MATCH (c:Argument)
    USING INDEX SEEK c:Argument(space, ns, frontier)
    WHERE c.space = $space AND c.ns = $ns AND c.frontier = k
    SET c.state = 'IN', c.wave = k, c.frontier = null
    WITH c
    UNWIND [(c)-[:ATTACKS]->(y) | y] AS t
    WITH DISTINCT t
    WHERE t:Argument AND t.state IS NULL AND t.space = $space AND t.ns = $ns
    SET t.state = 'OUT', t.wave = k
    WITH t
    CALL (t, k) {
      WITH t AS h WHERE COUNT { (h)-[:ATTACKS]->() } = 1
      MATCH (h) (()-[:ATTACKS]->(y WHERE y.link AND y.space = $space AND y.ns = $ns)){3,} (e)
      WHERE NOT EXISTS { MATCH (e)-[:ATTACKS]->(z WHERE z.link AND z.space = $space AND z.ns = $ns) }
      MATCH path = shortestPath((h)-[:ATTACKS*]->(e))
      WHERE all(x IN nodes(path) WHERE x.space = $space AND x.ns = $ns)
      WITH nodes(path) AS seg
      WHERE all(x IN seg[1..] WHERE x.state IS NULL)
      WITH seg, size(seg) - 1 - (1 - (size(seg) - 1) % 2) AS j
      FOREACH (i IN range(1, j - 1) |
        SET (seg[i]).state = CASE i % 2 WHEN 1 THEN 'IN' ELSE 'OUT' END, (seg[i]).wave = k + (i + 1) / 2)
      SET (seg[j]).frontier = k + (j + 1) / 2
    }
    UNWIND [(t)-[:ATTACKS]->(y) | y] AS u
    WITH u
    WHERE u:Argument AND u.state IS NULL AND u.space = $space AND u.ns = $ns
    WITH u, u.undefeated - count(*) AS left
    SET u.undefeated = left, u.frontier = CASE WHEN left = 0 THEN k + 1 END
    // wave k ends
  }
  RETURN count(*) AS iterations
}
CALL () {
  MATCH (f:Argument)
  USING INDEX SEEK f:Argument(space, ns, frontier)
  WHERE f.space = $space AND f.ns = $ns AND f.frontier > $last_wave
  RETURN min(f.frontier) AS next_wave
}
WITH arguments, attacks, next_wave, next_wave IS NOT NULL AS pending
CALL (pending) {
  MATCH (a:Argument {space: $space, ns: $ns})
  USING INDEX a:Argument(space, ns)
  WHERE NOT pending
  WITH a, coalesce(a.state, 'UNDEC') AS label
  SET a.label = label, a.state = null
  FOREACH (_ IN CASE WHEN label = 'UNDEC' AND a.wave IS NOT NULL THEN [1] ELSE [] END | SET a.wave = null)
  RETURN collect(CASE label WHEN 'IN' THEN a.name END) AS in_names,
         collect(CASE label WHEN 'OUT' THEN a.name END) AS out_names,
         collect(CASE label WHEN 'UNDEC' THEN a.name END) AS undec_names,
         coalesce(max(CASE label WHEN 'IN' THEN a.wave END), 0) AS waves
}
RETURN arguments, attacks, pending, next_wave, in_names, out_names, undec_names, waves, 0 AS unlabelled
