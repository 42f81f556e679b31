// name: argumentation.merge_attacks
// mode: write
// params: space, ns, attacks
// description: add ATTACKS {reason, by} edges between arguments of a namespace, given as maps {attacker, target, reason, by}; one edge per (attacker, target, by)
// :param space => 'default'
// :param ns => 'deliberation:d1'
// :param attacks => [{attacker: 'c1', target: 'c2', reason: 'contradicts', by: 'policy'}]
UNWIND $attacks AS att
MATCH (a:Argument {space: $space, ns: $ns, name: att.attacker})
MATCH (b:Argument {space: $space, ns: $ns, name: att.target})
MERGE (a)-[r:ATTACKS {by: coalesce(att.by, '')}]->(b)
SET r.reason = att.reason
RETURN count(r) AS attacks
