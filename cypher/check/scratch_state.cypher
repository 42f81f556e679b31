// name: check.scratch_state
// mode: read
// params: space, limit
// description: invariant: no scratch state of an unfinished computation is left: reconsolidation and currency marks (properties starting with _rc, the RcFrontier label) on claims, episodes and justifications, and the grounded solver's working properties (state, undefeated, frontier, link) on arguments
// Both computations set and remove their marks inside one transaction, so a committed mark means a
// computation committed half-done. Cost: one index seek per label (claims, episodes, justifications,
// arguments of the space) reading each node's property keys; RcFrontier by its label (empty when
// healthy).
// :param space => 'default'
// :param limit => 100
CALL () {
  MATCH (n:Claim)
  WHERE n.space = $space AND n.id IS NOT NULL AND any(k IN keys(n) WHERE k STARTS WITH '_rc')
  RETURN 'Claim ' + n.id + ': ' + reduce(s = '', k IN [k IN keys(n) WHERE k STARTS WITH '_rc'] | s + ' ' + k) AS item
  UNION ALL
  MATCH (n:Justification)
  WHERE n.space = $space AND n.id IS NOT NULL AND any(k IN keys(n) WHERE k STARTS WITH '_rc')
  RETURN 'Justification ' + n.id + ': ' + reduce(s = '', k IN [k IN keys(n) WHERE k STARTS WITH '_rc'] | s + ' ' + k) AS item
  UNION ALL
  MATCH (n:Episode)
  WHERE n.space = $space AND n.id IS NOT NULL AND any(k IN keys(n) WHERE k STARTS WITH '_rc')
  RETURN 'Episode ' + n.id + ': ' + reduce(s = '', k IN [k IN keys(n) WHERE k STARTS WITH '_rc'] | s + ' ' + k) AS item
  UNION ALL
  MATCH (n:RcFrontier)
  WHERE n.space = $space
  RETURN head(labels(n)) + ' ' + coalesce(n.id, elementId(n)) + ': label RcFrontier' AS item
  UNION ALL
  MATCH (n:Argument)
  WHERE n.space = $space AND n.ns IS NOT NULL
    AND (n.state IS NOT NULL OR n.undefeated IS NOT NULL OR n.frontier IS NOT NULL OR n.link IS NOT NULL)
  RETURN 'Argument ' + n.ns + '/' + n.name + ': solver state left' AS item
}
WITH collect(item) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
