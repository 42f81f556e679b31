// name: support.fixpoint
// mode: write
// params: run, waves
// description: forward chaining to the least fixpoint inside the marked region, up to $waves waves in one statement; returns how many claims each call made IN
// cross-space: works on the region that support.mark_region marked inside one space, found by its unique run id
// :param run => 'a-1'
// :param waves => 64
// A worklist: the frontier (label RcFrontier, set by support.mark_region) holds the claims that
// just became IN. Each wave takes the frontier off, counts down _rc_miss of every live region
// justification they are a premise of, and a conclusion whose justification reaches 0 becomes IN
// and joins the next frontier. Every execution of the CALL sees the previous one's writes. A
// claim enters the frontier at most once, so all waves together touch every region edge once;
// an empty wave is one scan of an empty label. Support cycles never justify themselves: a cycle
// member becomes IN only through a justification completed from outside the cycle.
// The caller runs this again while the last wave still gained (deep regions need > $waves).
UNWIND range(1, $waves) AS wave
CALL (wave) {
  MATCH (p:RcFrontier)
  WHERE p._rc = $run
  REMOVE p:RcFrontier
  WITH p
  MATCH (p)-[:PREMISE_OF]->(j:Justification)-[:JUSTIFIES]->(d:Claim)
  WHERE j._rc = $run AND NOT j._rc_dead AND d._rc_in = false
  WITH j, d, count(*) AS completed
  SET j._rc_miss = j._rc_miss - completed
  WITH j, d
  WHERE j._rc_miss = 0
  WITH DISTINCT d
  SET d._rc_in = true, d:RcFrontier
  RETURN count(d) AS gained
}
RETURN collect(gained) AS gained
