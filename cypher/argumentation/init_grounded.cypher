// name: argumentation.init_grounded
// mode: write
// params: space, ns
// description: grounded labelling, step 1: clear old labels, set each argument's counter of attacks from arguments not yet OUT, put unattacked arguments on the wave-1 frontier; O(arguments + attacks)
// :param space => 'default'
// :param ns => 'framework:ex1'
// The counter counts attack EDGES from inside the namespace (several ATTACKS edges between one
// pair, e.g. from different agents, count once each, and propagate_waves decrements per edge
// too), so it reaches 0 exactly when every attacker is OUT. `frontier` is set only where a wave
// will look for it.
// Plan-proof on purpose: the index hint anchors the scan of the namespace, and the attackers come
// from an unconstrained pattern comprehension filtered afterwards, so the planner can only expand
// from `a` (with the empty statistics of a fresh store it otherwise chose a label scan of all
// arguments per argument: quadratic).
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
WITH a, size([x IN [(a)<-[:ATTACKS]-(y) | y] WHERE x:Argument AND x.space = $space AND x.ns = $ns]) AS attackers
SET a.label = null, a.wave = null, a.undefeated = attackers,
    a.frontier = CASE WHEN attackers = 0 THEN 1 END
RETURN count(a) AS arguments, sum(attackers) AS attacks, sum(CASE WHEN attackers = 0 THEN 1 ELSE 0 END) AS unattacked
