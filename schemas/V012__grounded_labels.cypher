// version: 12
// description: grounded marks: every node with a grounded `label` (arguments, deliberation proposals, enlisted claims) carries :In, :Out or :Undec next to it, for Neo4j Browser and Bloom, which style by label
// params:
// From this version on, the statements that write `label` (argumentation.start_grounded,
// finish_grounded, write_labels) set the mark too (docs/explore.md, "Grounded labels in Browser");
// this migration marks what an older store holds, in batches, one label at a time (an enlisted
// claim or proposal is also an Argument: the later statements skip it).
MATCH (a:Argument) WHERE a.label IS NOT NULL
CALL (a) {
  REMOVE a:In:Out:Undec
  SET a:$(CASE a.label WHEN 'IN' THEN 'In' WHEN 'OUT' THEN 'Out' WHEN 'UNDEC' THEN 'Undec' ELSE [] END)
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (p:Proposal) WHERE p.label IS NOT NULL AND NOT p:Argument
CALL (p) {
  REMOVE p:In:Out:Undec
  SET p:$(CASE p.label WHEN 'IN' THEN 'In' WHEN 'OUT' THEN 'Out' WHEN 'UNDEC' THEN 'Undec' ELSE [] END)
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (c:Claim) WHERE c.label IS NOT NULL AND NOT c:Argument
CALL (c) {
  REMOVE c:In:Out:Undec
  SET c:$(CASE c.label WHEN 'IN' THEN 'In' WHEN 'OUT' THEN 'Out' WHEN 'UNDEC' THEN 'Undec' ELSE [] END)
} IN TRANSACTIONS OF 10000 ROWS;
