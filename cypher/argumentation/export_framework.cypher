// name: argumentation.export_framework
// mode: read
// params: space, ns
// description: the attack graph of a namespace in one record: `names` (every argument once), and the attacks inside the namespace as two parallel lists `src`/`dst` of names (parallel edges repeat a pair; the caller keeps each pair once)
// :param space => 'default'
// :param ns => 'framework:ex1'
// One statement, one round trip, flat lists of strings. It replaced two queries (the names, then
// `collect(DISTINCT [a.name, b.name])`). Measured on a 10^5-argument chain, best of 3:
// two queries 2.4 s, one query returning per-argument nested lists 2.0-3.5 s, these flat lists
// 1.1 s (the driver decodes flat string lists much faster than nested lists of pairs, and the
// DISTINCT over pairs is left to a Python dict). On a small file the second round trip was a
// third of the export. Each argument yields one row per target plus one null row that puts its
// name on `names`. The targets come from an unconstrained pattern comprehension filtered
// afterwards, so the planner can only expand from `a` (see start_grounded).
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
UNWIND [x IN [(a)-[:ATTACKS]->(y) | y] WHERE x:Argument AND x.space = $space AND x.ns = $ns | x.name] + [null] AS t
RETURN collect(CASE WHEN t IS NULL THEN a.name END) AS names,
       collect(CASE WHEN t IS NOT NULL THEN a.name END) AS src,
       collect(t) AS dst
