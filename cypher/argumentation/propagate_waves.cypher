// name: argumentation.propagate_waves
// mode: write
// params: space, ns, first_wave, last_wave
// description: grounded labelling, step 2: run waves first_wave..last_wave server-side; each wave labels its frontier IN, their targets OUT (jumping along unbranched chains), and decrements the counters of what those OUT arguments attack; returns whether a frontier is left and the next non-empty wave, and when none is left writes the labels with their marks and returns the names by label (the finish of start_grounded, in the same statement)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param first_wave => 1
// :param last_wave => 64
// Each wave reads only its frontier (an index seek on (space, ns, frontier) with k), the
// out-edges of its new IN arguments and the out-edges of its new OUT arguments. Every argument
// enters a frontier at most once and is labelled at most once, so the total work over all waves
// is O(arguments + attacks); an empty wave costs one index seek. Looking up the next non-empty
// wave instead (the smallest `frontier`, in index order, once per wave) was tried: inside a long
// write transaction that lookup grows with the writes made so far (the admbuster-like double
// chain of 10^5 arguments, 25,000 waves, took 127 s instead of 8), so it is done once per
// statement only (`next_wave`, where the caller starts the next batch). Each subquery run
// sees the writes of the previous ones, so many waves run in this one statement. The plan is
// pinned on purpose: the seek hint (without it the planner scans the small frontier index, which
// inside a long write statement costs time proportional to the writes made so far), and the
// targets come from unconstrained pattern comprehensions filtered afterwards, so they can only
// be reached by expanding from the frontier (never by an index seek on the whole namespace +
// expand-into, which bad statistics on a fresh store can make the planner pick).
// The working label is `state` (the stored `label` is written once, by the finish step: a
// re-solve that changes nothing then commits nothing; clearing and re-setting `label` cost more
// in the commit than the whole solve of a long chain).
// Counters: an undecided argument with no `undefeated` has exactly one attacker left (the
// counters pass writes it only for 2 or more); when the count reaches 0 the counter is removed
// and the argument goes on the frontier of the next wave.
// Chain jump: a "link" has exactly one attacker in the namespace, that attacker attacks nothing
// else, and the link itself attacks exactly one argument; its label and wave follow from its
// attacker's. The walk takes as links only arguments in the namespace with exactly one attacker
// and one target AT ALL (both degrees read from the store, O(1)): the one attacker is then the
// previous argument of the walk, so no flag has to be written beforehand, an argument attacked
// from another namespace simply ends the run (the waves take over there), and the run is the
// only path into its end, so the shortest path between the two ends needs no namespace filter
// (measured on the 10^5 chain: the jump 1.05 s instead of 1.69 s with the counters + namespace
// filter version of the predicate). Every run starts after an OUT argument h (the first argument
// after an IN one is OUT in the same wave), so the jump sits in one place: when h (attacking
// nothing else) becomes OUT at wave k and is followed by at least 3 links, the run is found by
// a quantified path pattern with a node predicate only (linear; a predicate on the previous
// node made it quadratic, 50 s for 10^5) and ordered by shortestPath between its ends (BFS over
// a path where the run is the only path into its end: linear).
// Position i of the run is IN when i is odd, OUT when even, at wave k + (i + 1) / 2: exactly
// what the waves would give. The last IN position j is not labelled but put on the frontier of
// its wave, so the waves resume there and handle its targets (and the run's last OUT argument)
// as usual; the statement returns the next non-empty wave, so the loop skips the empty waves in
// between.
// The finish: when no frontier is left the statement ends exactly like start_grounded
// (label := state, undecided = UNDEC, with its mark), so the last batch of waves
// and the labelling are one statement and one round trip (`waves_labelled`: the last IN wave).
// The finish runs behind `UNWIND CASE WHEN pending THEN [] ELSE [true] END`: with `WHERE NOT
// pending` on its MATCH the planner seeked every argument of the namespace and filtered them
// afterwards, so every statement that left waves pending read the whole namespace for nothing
// (PROFILE on the double chain of 10^3: 1,001 db hits per pending statement; at 10^5, 10^5 per
// batch).
// `CYPHER replan=skip`: the plan is pinned by hints and pattern comprehensions, so a replan can
// only cost time: while frameworks are imported and solved, the statistics of the (space, ns,
// frontier) index change all the time and Neo4j replanned this large statement over and over
// (52 discarded plans in one 4-minute bench run; about 0.2-1 s each).
CYPHER replan=skip
UNWIND range($first_wave, $last_wave) AS k
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
WITH count(*) AS waves
CALL () {
  MATCH (f:Argument)
  USING INDEX SEEK f:Argument(space, ns, frontier)
  WHERE f.space = $space AND f.ns = $ns AND f.frontier > $last_wave
  RETURN min(f.frontier) AS next_wave
}
WITH waves, next_wave, next_wave IS NOT NULL AS pending
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
  RETURN count(a) AS arguments,
         collect(CASE label WHEN 'IN' THEN a.name END) AS in_names,
         collect(CASE label WHEN 'OUT' THEN a.name END) AS out_names,
         collect(CASE label WHEN 'UNDEC' THEN a.name END) AS undec_names,
         coalesce(max(CASE label WHEN 'IN' THEN a.wave END), 0) AS waves_labelled
}
RETURN waves, pending, next_wave, arguments, in_names, out_names, undec_names, waves_labelled, 0 AS unlabelled
