// name: claim.set_current
// mode: write
// params: space, changes
// description: make claims the current belief of facts that have none yet (first versions)
// :param space => 'default'
// :param changes => [{key: 'user.risk_tolerance', id: 'c-1'}]
UNWIND $changes AS row
MATCH (f:Fact {space: $space, key: row.key})
WHERE NOT (f)-[:CURRENT]->()
MATCH (c:Claim {space: $space, id: row.id})
CREATE (f)-[:CURRENT]->(c)
SET c.active_key = f.key
RETURN c.id AS current
