// name: claim.lock_facts
// mode: write
// params: space, keys
// description: take the write lock on facts (creating them), in the given order, and return each one's current belief, value type, the active rule that derives it, if any, and the key it was merged into, if it is an alias
// :param space => 'default'
// :param keys => ['user.risk_tolerance']
// Concurrent writers to one key serialize on the exclusive lock of the fact's FactLock node (the
// SET below), and the CURRENT edge is read only after it is held, inside the same transaction.
// Why not lock the Fact itself: it becomes a dense node (a VERSION_OF edge per version), and a
// writer waiting for a dense node's lock already holds a shared relationship-group lock on it,
// which deadlocks with the lock holder deleting the old CURRENT edge. FactLock has no edges.
// MERGE only when the lock node is new: on an existing node MERGE takes a shared lock first, and
// two writers holding it both deadlock when upgrading to the exclusive lock the SET needs.
// Callers pass several keys sorted, so two transactions take their locks in the same order.
// A key that an active derivation rule derives is protected (direct writes are refused or
// disputed, per the rule); rules are few per space, each match is one anchored regex. rules: how
// many active rules the space has (none: the write's settling skips the rule engine). alias: a fact
// merged into another (bg.keys.merge) holds no versions; the caller locks the target and writes there.
UNWIND $keys AS key
OPTIONAL MATCH (existing:FactLock {space: $space, key: key})
CALL (existing, key) {
  WITH existing WHERE existing IS NULL
  MERGE (l:FactLock {space: $space, key: key})
  RETURN l
  UNION
  WITH existing WHERE existing IS NOT NULL
  RETURN existing AS l
}
SET l.writes = coalesce(l.writes, 0) + 1
WITH key, l
MERGE (f:Fact {space: $space, key: key})
ON CREATE SET f.created_at = datetime()
WITH key, f, l
OPTIONAL MATCH (f)-[:CURRENT]->(c:Claim)
CALL (key) {
  OPTIONAL MATCH (r:Rule {space: $space, status: 'active'})
  WHERE key =~ r.conclusion_regex
  RETURN r {.name, .version, .direct_writes} AS rule
  LIMIT 1
}
RETURN key, l.writes AS writes, f.value_type AS value_type, rule, f.merged_into AS alias,
       COUNT { (:Rule {space: $space, status: 'active'}) } AS rules,
       c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
          created_at: toString(c.created_at), valid_from: toString(c.valid_from)} AS current
