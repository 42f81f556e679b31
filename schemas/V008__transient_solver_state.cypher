// version: 8
// description: the grounded solver's working properties are transient now: remove the `undefeated` counters and `link` flags that earlier versions left on arguments
// The solver writes `undefeated` only where an argument has 2 or more attackers and reads a
// missing one as 1, so a counter left by an earlier version would be taken for a live one;
// `link` is no longer used. Batched, so a large store does not need one huge transaction.
MATCH (a:Argument) WHERE a.undefeated IS NOT NULL OR a.link IS NOT NULL OR a.state IS NOT NULL
CALL (a) { REMOVE a.undefeated, a.link, a.state } IN TRANSACTIONS OF 10000 ROWS;
