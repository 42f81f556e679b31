// name: argumentation.propagate_waves
// mode: write
// params: space, ns, first_wave, last_wave
// description: grounded labelling, step 2: run waves first_wave..last_wave server-side; each wave labels its frontier IN, their targets OUT (jumping along unbranched chains), and decrements the counters of what those OUT arguments attack; returns whether a frontier is left and the next non-empty wave
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param first_wave => 1
// :param last_wave => 64
// Each wave reads only its frontier (an index seek on (space, ns, frontier)), the out-edges of
// its new IN arguments and the out-edges of its new OUT arguments. Every argument enters a
// frontier at most once and is labelled at most once, so the total work over all waves is
// O(arguments + attacks); an empty wave costs one index seek. Each subquery run sees the writes
// of the previous ones, so many waves run in this one statement. The plan is pinned on purpose:
// the seek hint (without it the planner scans the small frontier index, which inside a long
// write statement costs time proportional to the writes made so far), and the targets come from
// unconstrained pattern comprehensions filtered afterwards, so they can only be reached by
// expanding from the frontier (never by an index seek on the whole namespace + expand-into,
// which bad statistics on a fresh store can make the planner pick).
// The working label is `state` (the stored `label` is written once, by the finish step: a
// re-solve that changes nothing then commits nothing; clearing and re-setting `label` cost more
// in the commit than the whole solve of a long chain).
// Chain jump: an argument marked `link` by start_grounded has exactly one attacker in the
// namespace, and that attacker attacks nothing else, so its label and wave follow from that
// attacker's. Every run of links starts after an OUT argument h (the first argument after an
// IN one is OUT in the same wave), so the jump sits in one place: when h becomes OUT at wave k
// and is followed by at least 3 links, the run is found by a quantified path pattern with a node
// predicate only (linear; a predicate on the previous node made it quadratic: 50 s for 10^5)
// and ordered by shortestPath between its ends (bidirectional BFS over a path, restricted to the
// namespace, where the run is the only path into its end: linear). Position i of the run is IN
// when i is odd, OUT when even, at wave k + (i + 1) / 2: exactly what the waves would give. The
// last IN position j is not labelled but put on the frontier of its wave, so the waves resume
// there and handle its targets (and the run's last OUT argument) as usual. The statement returns
// the next non-empty wave, so the loop skips the empty waves in between.
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
WITH count(*) AS waves
CALL () {
  MATCH (f:Argument)
  USING INDEX SEEK f:Argument(space, ns, frontier)
  WHERE f.space = $space AND f.ns = $ns AND f.frontier > $last_wave
  RETURN min(f.frontier) AS next_wave
}
RETURN waves, next_wave IS NOT NULL AS pending, next_wave
