// name: argumentation.finish_grounded
// mode: write
// params: space, ns
// description: grounded labelling, step 3: write the stored label from the working state (undecided = UNDEC, its old wave removed) with its mark (:In, :Out or :Undec, the other two removed) and drop the state; return the argument names by label and the number of waves
// :param space => 'default'
// :param ns => 'framework:ex1'
// Setting a property to the value it already has is not a change, nor is setting a label the node
// has or removing one it lacks: a re-solve whose labels did not change commits nothing.
// The mark (:In, :Out, :Undec) mirrors `label` for Neo4j Browser and Bloom, which style by label
// (docs/explore.md, "Grounded labels in Browser"); check.grounded_labels verifies it. One
// FOREACH per value sets the one mark and removes the other two, so a mark left wrong by anything
// is repaired by the next solve; it costs 2 db hits per argument. The working properties `state` and `undefeated` (set in this
// transaction) are removed, so they never reach the store (`frontier` is empty by now).
// `CYPHER replan=skip`: the plan is pinned by hints and pattern comprehensions, so a replan can
// only cost time: while frameworks are imported and solved, the statistics of the (space, ns,
// frontier) index change all the time and Neo4j replanned this large statement over and over
// (52 discarded plans in one 4-minute bench run; about 0.2-1 s each).
CYPHER replan=skip
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
WITH a, coalesce(a.state, 'UNDEC') AS label
SET a.label = label, a.state = null, a.undefeated = null
FOREACH (_ IN CASE WHEN label = 'UNDEC' AND a.wave IS NOT NULL THEN [1] ELSE [] END | SET a.wave = null)
FOREACH (_ IN CASE WHEN label = 'IN' THEN [1] ELSE [] END | SET a:In REMOVE a:Out:Undec)
FOREACH (_ IN CASE WHEN label = 'OUT' THEN [1] ELSE [] END | SET a:Out REMOVE a:In:Undec)
FOREACH (_ IN CASE WHEN label = 'UNDEC' THEN [1] ELSE [] END | SET a:Undec REMOVE a:In:Out)
RETURN count(a) AS arguments,
       collect(CASE label WHEN 'IN' THEN a.name END) AS in_names,
       collect(CASE label WHEN 'OUT' THEN a.name END) AS out_names,
       collect(CASE label WHEN 'UNDEC' THEN a.name END) AS undec_names,
       0 AS unlabelled,
       coalesce(max(CASE label WHEN 'IN' THEN a.wave END), 0) AS waves
