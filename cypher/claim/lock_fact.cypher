// name: claim.lock_fact
// mode: write
// params: space, key
// description: take the write lock on a fact (creating it) and return its current belief, if any
// :param space => 'default'
// :param key => 'user.risk_tolerance'
// Concurrent writers to one key serialize on the SET below: it takes the Fact node's exclusive
// lock, and the CURRENT edge is read only after the lock is held, inside the same transaction.
MERGE (f:Fact {space: $space, key: $key})
ON CREATE SET f.created_at = datetime()
SET f.writes = coalesce(f.writes, 0) + 1
WITH f
OPTIONAL MATCH (f)-[:CURRENT]->(c:Claim)
RETURN f.key AS key, f.writes AS writes, f.value_type AS value_type, c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
       created_at: toString(c.created_at), valid_from: toString(c.valid_from)} AS current
