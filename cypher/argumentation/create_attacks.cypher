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
// 745 s import seen on 2026-12-03). `USING INDEX SEEK`, not a plain hint, which also allows a
// scan of that index per pair (write_labels had that plan: 1,001,000 db hits for 1,000 names).
// Seen again on 5.26 during bench runs on 2026-12-04: a 20,000-attack import took 125 s, a 10^5
// one was stopped after 7 minutes (the slow plan was not captured; EXPLAIN afterwards showed the
// seeks).
UNWIND $attacks AS pair
MATCH (a:Argument {space: $space, ns: $ns, name: pair[0]})
USING INDEX SEEK a:Argument(space, ns, name)
MATCH (b:Argument {space: $space, ns: $ns, name: pair[1]})
USING INDEX SEEK b:Argument(space, ns, name)
CREATE (a)-[:ATTACKS]->(b)
RETURN count(*) AS created
