// name: claim.set_current
// mode: write
// params: space, key, id
// description: make a claim the fact's current belief when the fact has none (first version)
// :param space => 'default'
// :param key => 'user.risk_tolerance'
// :param id => 'c-1'
MATCH (f:Fact {space: $space, key: $key})
WHERE NOT (f)-[:CURRENT]->()
MATCH (c:Claim {space: $space, id: $id})
CREATE (f)-[:CURRENT]->(c)
SET c.active_key = f.key
RETURN c.id AS current
