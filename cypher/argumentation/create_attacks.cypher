// name: argumentation.create_attacks
// mode: write
// params: space, ns, attacks
// description: create one ATTACKS edge per [attacker, target] name pair of a namespace (pairs already validated distinct and known)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param attacks => [['a1', 'a2'], ['a2', 'a3']]
// The unique (space, ns, name) index is hinted: with the empty statistics of a fresh store the
// planner was seen to seek the (space, ns) index and filter on name instead, which is
// quadratic for an import (Neo4j 2025.12.1 always, from an empty store: a 10^4 chain took
// 103-224 s instead of 0.8 s; 5.26 for one side after bench runs; the likely cause of one
// 745 s import seen on 2026-12-03).
UNWIND $attacks AS pair
MATCH (a:Argument {space: $space, ns: $ns, name: pair[0]})
USING INDEX a:Argument(space, ns, name)
MATCH (b:Argument {space: $space, ns: $ns, name: pair[1]})
USING INDEX b:Argument(space, ns, name)
CREATE (a)-[:ATTACKS]->(b)
RETURN count(*) AS created
