// name: support.mark_region
// mode: write
// params: space, run, roots
// description: the reactivation region (claims downstream of the roots, not retracted) gets scratch marks; returns it and how many claims are grounded outside it
// :param space => 'default'
// :param run => 'a-1'
// :param roots => ['ep-1']
// Step 1 of the least fixpoint (DESIGN.md "Support"), inside the caller's transaction:
//   region     = claims reachable from the roots along PREMISE_OF/JUSTIFIES (a BFS that visits
//                every node once: VarLengthExpand(Pruning,BFS)), minus retracted ones (OUT by decree);
//   every region claim starts OUT (_rc_in = false);
//   every justification of a region claim counts the premises it has inside the region (_rc_miss)
//                and is dead (_rc_dead) if a premise outside the region does not hold: premises
//                outside keep their status; they are read, never written;
//   seeds      = region claims with a live justification whose premises are all outside (grounded
//                outside the region), or with no justification at all (a restored base claim):
//                they are IN and form the first frontier (scratch label RcFrontier).
// All _rc* properties and the RcFrontier label are scratch: support.apply_labels removes them in
// the same transaction, so no other transaction ever sees them and no justification changes.
UNWIND $roots AS rid
CALL (rid) {
  MATCH (n:Episode {space: $space, id: rid}) RETURN n
  UNION
  MATCH (n:Claim {space: $space, id: rid}) RETURN n
}
MATCH (n)-[:PREMISE_OF|JUSTIFIES*0..]->(c:Claim)
WITH DISTINCT c
WHERE c.space = $space AND c.status <> 'retracted'
SET c._rc = $run, c._rc_in = false
WITH collect(c) AS region
CALL (region) {
  UNWIND region AS c
  CALL (c) {
    OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
    CALL (j) {
      OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
      RETURN count(CASE WHEN p._rc = $run THEN 1 END) AS miss,
             count(CASE WHEN p._rc IS NULL AND p.status IN ['withdrawn', 'retracted'] THEN 1 END) > 0 AS dead
    }
    SET j._rc = $run, j._rc_miss = miss, j._rc_dead = dead
    RETURN count(j) AS families, count(CASE WHEN j IS NOT NULL AND miss = 0 AND NOT dead THEN 1 END) AS grounded
  }
  WITH c WHERE families = 0 OR grounded > 0
  SET c._rc_in = true, c:RcFrontier
  RETURN count(c) AS seeds
}
RETURN [c IN region | elementId(c)] AS region, seeds
