// name: argumentation.export_attacks
// mode: read
// params: space, ns
// description: every distinct attack of a namespace as [attacker, target] name pairs, as one list
// :param space => 'default'
// :param ns => 'framework:ex1'
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
UNWIND [(a)-[:ATTACKS]->(y) | y] AS b
WITH a, b
WHERE b:Argument AND b.space = $space AND b.ns = $ns
RETURN collect(DISTINCT [a.name, b.name]) AS attacks
