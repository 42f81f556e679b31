// version: 10
// description: status labels: every claim carries :Active, :Superseded, :Disputed, :Withdrawn, :Retracted or :Stale next to its status (retracted episodes :Retracted), for Neo4j Browser and Bloom, which style by label
// params:
// From this version on, the statements that set `status` set the label too (docs/explore.md,
// "Status in Browser"); this migration labels what an older store holds, in batches.
MATCH (c:Claim) WHERE c.status IS NOT NULL
CALL (c) {
  REMOVE c:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
  SET c:$(toUpper(left(c.status, 1)) + substring(c.status, 1))
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (e:Episode {status: 'retracted'})
CALL (e) {
  SET e:Retracted
} IN TRANSACTIONS OF 10000 ROWS;
