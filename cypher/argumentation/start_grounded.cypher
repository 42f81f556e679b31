// name: argumentation.start_grounded
// mode: write
// params: space, ns, last_wave
// description: grounded labelling in one statement when it fits: count the attackers (unattacked arguments on the wave-1 frontier), run waves 1..last_wave and last_wave more from the next non-empty wave server-side, and when no frontier is left label the rest UNDEC (each label with its mark :In/:Out/:Undec) and return the names by label; otherwise return pending = true (continue with propagate_waves, whose last batch finishes the same way); O(arguments + attacks)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param last_wave => 8
// One statement instead of three (init, first batch of waves, finish): the small frameworks that
// make up most uses (a dispute, a deliberation, the corpus: at most 4 waves) are dominated by the
// fixed cost of each statement, so they cost one statement plus the commit.
// Step 1 (counters): count the incoming attack EDGES from the namespace (several edges between
// one pair count once each; the waves decrement per edge too). Only what differs from the common
// case is written: `undefeated` := the count where it is 2 or more, `frontier` := 1 where it is 0;
// an argument with exactly one attacker gets nothing (a missing `undefeated` means 1). On a long
// chain this pass is a read (measured at 10^5: 0.4-0.6 s instead of 0.9-1.2 s when every argument
// got its counter and a chain flag). The solver's working properties (`state`, `undefeated`,
// `frontier`) exist only inside the solve: step 3 removes them, so outside a solve no argument
// carries them (V008 removed what earlier versions left), and a missing counter is never stale.
// The stored `label`/`wave` are not cleared: the waves work on `state`, and step 3 writes
// `label` only where it changed. The attackers come from an unconstrained pattern comprehension
// filtered afterwards and the scan carries the index hint, so the planner can only expand from
// `a` (with the empty statistics of a fresh store it otherwise chose a label scan of all
// arguments per argument: quadratic).
// Step 2 (waves): waves 1..last_wave, then last_wave more from the next non-empty wave (`resume`,
// one lookup): a chain jump in the first waves puts the rest of a long chain far ahead, and the
// second batch finishes it, so a chain of any length is solved by this one statement. Both
// batches run exactly the body of propagate_waves (see there; keep the copies in step).
// Step 3 (finish, only when no frontier is left): exactly the finish of propagate_waves (the label with its
// :In/:Out/:Undec mark), behind the same UNWIND guard (a `WHERE NOT pending` on the MATCH was
// applied after seeking every argument of the namespace).
// `pending` / `next_wave`: the smallest frontier wave beyond the second batch; the caller
// continues there with propagate_waves.
// `CYPHER replan=skip`: the plan is pinned by hints and pattern comprehensions, so a replan can
// only cost time: while frameworks are imported and solved, the statistics of the (space, ns,
// frontier) index change all the time and Neo4j replanned this large statement over and over
// (52 discarded plans in one 4-minute bench run; about 0.2-1 s each).
CYPHER replan=skip
CALL () {
  MATCH (a:Argument {space: $space, ns: $ns})
  USING INDEX a:Argument(space, ns)
  WITH a, size([x IN [(a)<-[:ATTACKS]-(y) | y] WHERE x:Argument AND x.space = $space AND x.ns = $ns]) AS attackers
  CALL (a, attackers) {
    WITH a, attackers WHERE attackers <> 1
    SET a.undefeated = CASE WHEN attackers > 1 THEN attackers END, a.frontier = CASE WHEN attackers = 0 THEN 1 END
  }
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
    WITH c, k
    UNWIND [(c)-[:ATTACKS]->(y) | y] AS t
    WITH DISTINCT t, k
    WHERE t:Argument AND t.state IS NULL AND t.space = $space AND t.ns = $ns
    SET t.state = 'OUT', t.wave = k
    WITH t, k
    CALL (t, k) {
      WITH t AS h WHERE COUNT { (h)-[:ATTACKS]->() } = 1
      MATCH (h) (()-[:ATTACKS]->(y WHERE COUNT { (y)<-[:ATTACKS]-() } = 1 AND COUNT { (y)-[:ATTACKS]->() } = 1 AND y.space = $space AND y.ns = $ns)){3,} (e)
      WHERE NOT EXISTS { MATCH (e)-[:ATTACKS]->(z WHERE COUNT { (z)<-[:ATTACKS]-() } = 1 AND COUNT { (z)-[:ATTACKS]->() } = 1 AND z.space = $space AND z.ns = $ns) }
      MATCH path = shortestPath((h)-[:ATTACKS*]->(e))
      WITH nodes(path) AS seg
      WHERE all(x IN seg[1..] WHERE x.state IS NULL)
      WITH seg, size(seg) - 1 - (1 - (size(seg) - 1) % 2) AS j
      FOREACH (i IN range(1, j - 1) |
        SET (seg[i]).state = CASE i % 2 WHEN 1 THEN 'IN' ELSE 'OUT' END, (seg[i]).wave = k + (i + 1) / 2)
      SET (seg[j]).frontier = k + (j + 1) / 2
    }
    UNWIND [(t)-[:ATTACKS]->(y) | y] AS u
    WITH u, k
    WHERE u:Argument AND u.state IS NULL AND u.space = $space AND u.ns = $ns
    WITH u, k, coalesce(u.undefeated, 1) - count(*) AS left
    SET u.undefeated = CASE WHEN left > 0 THEN left END, u.frontier = CASE WHEN left = 0 THEN k + 1 END
    // wave k ends
  }
  RETURN count(*) AS iterations
}
CALL () {
  MATCH (f:Argument)
  USING INDEX SEEK f:Argument(space, ns, frontier)
  WHERE f.space = $space AND f.ns = $ns AND f.frontier > $last_wave
  RETURN min(f.frontier) AS resume
}
CALL (resume) {
  UNWIND CASE WHEN resume IS NULL THEN [] ELSE range(resume, resume + $last_wave - 1) END AS k
  CALL (k) {
    // wave k begins
    MATCH (c:Argument)
    USING INDEX SEEK c:Argument(space, ns, frontier)
    WHERE c.space = $space AND c.ns = $ns AND c.frontier = k
    SET c.state = 'IN', c.wave = k, c.frontier = null
    WITH c, k
    UNWIND [(c)-[:ATTACKS]->(y) | y] AS t
    WITH DISTINCT t, k
    WHERE t:Argument AND t.state IS NULL AND t.space = $space AND t.ns = $ns
    SET t.state = 'OUT', t.wave = k
    WITH t, k
    CALL (t, k) {
      WITH t AS h WHERE COUNT { (h)-[:ATTACKS]->() } = 1
      MATCH (h) (()-[:ATTACKS]->(y WHERE COUNT { (y)<-[:ATTACKS]-() } = 1 AND COUNT { (y)-[:ATTACKS]->() } = 1 AND y.space = $space AND y.ns = $ns)){3,} (e)
      WHERE NOT EXISTS { MATCH (e)-[:ATTACKS]->(z WHERE COUNT { (z)<-[:ATTACKS]-() } = 1 AND COUNT { (z)-[:ATTACKS]->() } = 1 AND z.space = $space AND z.ns = $ns) }
      MATCH path = shortestPath((h)-[:ATTACKS*]->(e))
      WITH nodes(path) AS seg
      WHERE all(x IN seg[1..] WHERE x.state IS NULL)
      WITH seg, size(seg) - 1 - (1 - (size(seg) - 1) % 2) AS j
      FOREACH (i IN range(1, j - 1) |
        SET (seg[i]).state = CASE i % 2 WHEN 1 THEN 'IN' ELSE 'OUT' END, (seg[i]).wave = k + (i + 1) / 2)
      SET (seg[j]).frontier = k + (j + 1) / 2
    }
    UNWIND [(t)-[:ATTACKS]->(y) | y] AS u
    WITH u, k
    WHERE u:Argument AND u.state IS NULL AND u.space = $space AND u.ns = $ns
    WITH u, k, coalesce(u.undefeated, 1) - count(*) AS left
    SET u.undefeated = CASE WHEN left > 0 THEN left END, u.frontier = CASE WHEN left = 0 THEN k + 1 END
    // wave k ends
  }
  RETURN count(*) AS resumed
}
CALL (resume) {
  MATCH (f:Argument)
  USING INDEX SEEK f:Argument(space, ns, frontier)
  WHERE f.space = $space AND f.ns = $ns AND f.frontier > coalesce(resume + $last_wave - 1, $last_wave)
  RETURN min(f.frontier) AS next_wave
}
WITH arguments, attacks, next_wave, next_wave IS NOT NULL AS pending
CALL (pending) {
  UNWIND CASE WHEN pending THEN [] ELSE [true] END AS finish
  MATCH (a:Argument {space: $space, ns: $ns})
  USING INDEX a:Argument(space, ns)
  WITH a, coalesce(a.state, 'UNDEC') AS label
  SET a.label = label, a.state = null, a.undefeated = null
  FOREACH (_ IN CASE WHEN label = 'UNDEC' AND a.wave IS NOT NULL THEN [1] ELSE [] END | SET a.wave = null)
  FOREACH (_ IN CASE WHEN label = 'IN' THEN [1] ELSE [] END | SET a:In REMOVE a:Out:Undec)
  FOREACH (_ IN CASE WHEN label = 'OUT' THEN [1] ELSE [] END | SET a:Out REMOVE a:In:Undec)
  FOREACH (_ IN CASE WHEN label = 'UNDEC' THEN [1] ELSE [] END | SET a:Undec REMOVE a:In:Out)
  RETURN collect(CASE label WHEN 'IN' THEN a.name END) AS in_names,
         collect(CASE label WHEN 'OUT' THEN a.name END) AS out_names,
         collect(CASE label WHEN 'UNDEC' THEN a.name END) AS undec_names,
         coalesce(max(CASE label WHEN 'IN' THEN a.wave END), 0) AS waves
}
RETURN arguments, attacks, pending, next_wave, in_names, out_names, undec_names, waves, 0 AS unlabelled
