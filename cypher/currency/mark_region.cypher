// name: currency.mark_region
// mode: write
// params: space, run, roots
// description: the currency region downstream of changed premises (active and stale claims) gets scratch marks; returns it and how many of its claims are current through premises outside it
// :param space => 'default'
// :param run => 'a-1'
// :param roots => ['c-1']
// Currency (DESIGN.md "Currency of derived claims") is a second least fixpoint over the same
// support graph: a claim is current iff one of its justifications has every premise current (an
// episode that is not retracted, a claim that is active). Only active and stale claims can change
// currency; every other status (superseded, disputed, withdrawn, retracted) is not current and is
// left out of the region, so a premise of that status counts as a premise outside that does not
// hold. Inside the caller's transaction:
//   region = active/stale claims reachable from the roots along PREMISE_OF/JUSTIFIES (each node
//            visited once), the roots themselves included when they are claims;
//   every justification of a region claim counts its premises inside the region (_rc_miss) and is
//            dead (_rc_dead) when a premise outside is not current or when it is retired (the rule
//            version that gave it was replaced or removed);
//   seeds  = region claims with a live justification grounded outside the region, or with none
//            (a base claim): they are current and form the first frontier of support.fixpoint,
//            which this reuses unchanged. currency.apply_labels removes every mark.
UNWIND $roots AS rid
CALL (rid) {
  MATCH (n:Episode {space: $space, id: rid}) RETURN n
  UNION
  MATCH (n:Claim {space: $space, id: rid}) RETURN n
}
MATCH (n)-[:PREMISE_OF|JUSTIFIES*0..]->(c:Claim)
WITH DISTINCT c
WHERE c.space = $space AND c.status IN ['active', 'stale']
SET c._rc = $run, c._rc_in = false
WITH collect(c) AS region
CALL (region) {
  UNWIND region AS c
  CALL (c) {
    OPTIONAL MATCH (j:Justification)-[:JUSTIFIES]->(c)
    CALL (j) {
      OPTIONAL MATCH (p)-[:PREMISE_OF]->(j)
      RETURN count(CASE WHEN p._rc = $run THEN 1 END) AS miss,
             count(CASE WHEN p._rc IS NULL AND NOT ((p:Episode AND coalesce(p.status, 'active') <> 'retracted')
                                                    OR (p:Claim AND p.status = 'active')) THEN 1 END) > 0 AS dead
    }
    WITH j, miss, dead OR coalesce(j.retired, false) AS dead
    SET j._rc = $run, j._rc_miss = miss, j._rc_dead = dead
    RETURN count(j) AS families, count(CASE WHEN j IS NOT NULL AND miss = 0 AND NOT dead THEN 1 END) AS grounded
  }
  WITH c WHERE families = 0 OR grounded > 0
  SET c._rc_in = true, c:RcFrontier
  RETURN count(c) AS seeds
}
RETURN [c IN region | elementId(c)] AS region, seeds
