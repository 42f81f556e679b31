// name: argumentation.explain_argument
// mode: read
// params: space, ns, name
// description: one argument's stored label and wave with its attackers and targets inside the namespace (the evidence for its label)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param name => 'a1'
// The unique (space, ns, name) index is hinted, as in create_attacks: with the statistics of a
// fresh store the planner was seen to seek the (space, ns) index and filter on name instead,
// which reads the whole namespace for one argument.
MATCH (a:Argument {space: $space, ns: $ns, name: $name})
USING INDEX a:Argument(space, ns, name)
RETURN a.name AS name, a.label AS label, a.wave AS wave,
       [x IN [(a)<-[:ATTACKS]-(z) | z] WHERE x:Argument AND x.space = $space AND x.ns = $ns | x {.name, .label, .wave}] AS attackers,
       [y IN [(a)-[:ATTACKS]->(z) | z] WHERE y:Argument AND y.space = $space AND y.ns = $ns | y {.name, .label, .wave}] AS targets
