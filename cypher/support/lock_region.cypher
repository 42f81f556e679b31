// name: support.lock_region
// mode: write
// params: space, roots
// description: take the write lock on the roots of a retract or restore, every claim downstream of them (any status) and every premise of those claims' justifications, before the statement that reads them; writes nothing; returns how many nodes it locked
// :param space => 'default'
// :param roots => ['ep-1']
// Why: retract and restore read the statuses of the region and of the premises outside it, and decide
// from them which claims hold. A write that cites one of these nodes locks it first
// (claim.lock_premises, or the PREMISE_OF edge it creates), and a supersession writes the status of
// the claim it replaces (its lock); once this statement holds the locks, those writers have committed
// or wait for this transaction, so what support.repair / support.mark_region read next is final:
// a restore that reinstates a conclusion cannot miss its other premise being superseded (the
// supersession waits, then its currency pass sees the conclusion active and makes it stale).
// Lock order: these nodes first, then the fact locks the settling takes (rule re-derivation); a
// write takes its fact lock first, then the nodes it cites: Neo4j detects such a deadlock and the
// driver retries the transaction it aborts (Graph.write_tx).
UNWIND $roots AS rid
CALL (rid) {
  MATCH (n:Episode {space: $space, id: rid}) RETURN n
  UNION
  MATCH (n:Claim {space: $space, id: rid}) RETURN n
}
OPTIONAL MATCH (n)-[:PREMISE_OF|JUSTIFIES*1..]->(c:Claim)
WITH collect(DISTINCT n) + collect(DISTINCT c) AS region
CALL (region) {
  UNWIND region AS c
  OPTIONAL MATCH (p)-[:PREMISE_OF]->(:Justification)-[:JUSTIFIES]->(c)
  RETURN collect(DISTINCT p) AS premises
}
UNWIND region + premises AS x
WITH DISTINCT x
SET x._lock = true
REMOVE x._lock
RETURN count(x) AS locked
