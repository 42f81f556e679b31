// name: argumentation.explain_argument
// mode: read
// params: space, ns, name
// description: one argument's stored label and wave with its attackers and targets inside the namespace (the evidence for its label)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param name => 'a1'
// The unique (space, ns, name) index is hinted: with the empty statistics of a fresh store the
// planner was seen to seek the (space, ns) index and filter on name instead, which is
// quadratic for an import (Neo4j 2025.12.1 always, from an empty store: a 10^4 chain took
// 103-224 s instead of 0.8 s; 5.26 for one side after bench runs; the likely cause of one
// 745 s import seen on 2026-12-03).
MATCH (a:Argument {space: $space, ns: $ns, name: $name})
USING INDEX a:Argument(space, ns, name)
RETURN a.name AS name, a.label AS label, a.wave AS wave,
       [x IN [(a)<-[:ATTACKS]-(z) | z] WHERE x:Argument AND x.space = $space AND x.ns = $ns | x {.name, .label, .wave}] AS attackers,
       [y IN [(a)-[:ATTACKS]->(z) | z] WHERE y:Argument AND y.space = $space AND y.ns = $ns | y {.name, .label, .wave}] AS targets
