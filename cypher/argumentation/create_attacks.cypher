// name: argumentation.create_attacks
// mode: write
// params: space, ns, attacks
// description: create one ATTACKS edge per [attacker, target] name pair of a namespace (pairs already validated distinct and known)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param attacks => [['a1', 'a2'], ['a2', 'a3']]
UNWIND $attacks AS pair
MATCH (a:Argument {space: $space, ns: $ns, name: pair[0]})
MATCH (b:Argument {space: $space, ns: $ns, name: pair[1]})
CREATE (a)-[:ATTACKS]->(b)
RETURN count(*) AS created
