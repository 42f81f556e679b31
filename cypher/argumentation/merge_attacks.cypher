// name: argumentation.merge_attacks
// mode: write
// params: space, ns, attacks
// description: add ATTACKS {reason, by} edges between arguments of a namespace, given as maps {attacker, target, reason, by}; one edge per (attacker, target, by)
// :param space => 'default'
// :param ns => 'deliberation:d1'
// :param attacks => [{attacker: 'c1', target: 'c2', reason: 'contradicts', by: 'policy'}]
// The unique (space, ns, name) index is hinted: with the empty statistics of a fresh store the
// planner was seen to seek the (space, ns) index and filter on name instead, which is
// quadratic for an import (Neo4j 2025.12.1 always, from an empty store: a 10^4 chain took
// 103-224 s instead of 0.8 s; 5.26 for one side after bench runs; the likely cause of one
// 745 s import seen on 2026-12-03). `USING INDEX SEEK`, as in create_attacks.
UNWIND $attacks AS att
MATCH (a:Argument {space: $space, ns: $ns, name: att.attacker})
USING INDEX SEEK a:Argument(space, ns, name)
MATCH (b:Argument {space: $space, ns: $ns, name: att.target})
USING INDEX SEEK b:Argument(space, ns, name)
MERGE (a)-[r:ATTACKS {by: coalesce(att.by, '')}]->(b)
SET r.reason = att.reason
RETURN count(r) AS attacks
