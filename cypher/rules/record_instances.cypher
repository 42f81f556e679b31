// name: rules.record_instances
// mode: write
// params: space, audit, at, rows
// description: record what an evaluation found for each instance (resolved or the missing premise key, the keys it read as READS edges) and link the audit to what it re-derived
// :param space => 'default'
// :param audit => null
// :param at => '2026-12-04T10:00:00Z'
// :param rows => [{rule: 'work_timezone', key: 'user.work_timezone', status: 'resolved', missing: null, reads: ['user.employer'], claim: null, superseded: null, justification: null, tag: 'work_timezone@1'}]
// awaits = missing: an unresolved instance is found again (index on (space, awaits)) when that key
// gets a belief. READS edges are rewritten only when the keys read changed.
UNWIND $rows AS row
// The unique seek is a hint: compiled on an empty store the plan took a range index instead,
// which reads every instance of the rule (or of the key).
MATCH (i:RuleInstance {space: $space, rule: row.rule, key: row.key})
USING INDEX SEEK i:RuleInstance(space, rule, key)
WITH i, row, coalesce(i.reads, []) <> row.reads AS moved
SET i.status = row.status, i.missing = row.missing, i.awaits = row.missing, i.reads = row.reads,
    i.evaluated_at = datetime($at)
WITH i, row, moved
CALL (i, row, moved) {
  WITH i, row WHERE moved
  OPTIONAL MATCH (i)-[old:READS]->()
  DELETE old
  WITH DISTINCT i, row
  UNWIND row.reads AS rk
  MATCH (f:Fact {space: $space, key: rk})
  MERGE (i)-[:READS]->(f)
}
CALL (row) {
  WITH row WHERE $audit IS NOT NULL AND row.claim IS NOT NULL
  MATCH (a:Audit {space: $space, id: $audit})
  MATCH (c:Claim {space: $space, id: row.claim})
  CREATE (a)-[:REDERIVED {rule: row.tag, superseded: row.superseded, via: row.justification}]->(c)
  SET a.rederived = coalesce(a.rederived, 0) + 1
}
RETURN count(*) AS recorded
