// name: argumentation.propagate_waves
// mode: write
// params: space, ns, first_wave, last_wave
// description: grounded labelling, step 2: run waves first_wave..last_wave server-side; each wave labels its frontier IN, their targets OUT, and decrements the counters of what those OUT arguments attack; returns whether a frontier is left
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
UNWIND range($first_wave, $last_wave) AS k
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
WITH count(*) AS waves
RETURN waves, COUNT {
  MATCH (f:Argument)
  USING INDEX SEEK f:Argument(space, ns, frontier)
  WHERE f.space = $space AND f.ns = $ns AND f.frontier = $last_wave + 1
} > 0 AS pending
