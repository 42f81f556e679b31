// name: argumentation.write_labels
// mode: write
// params: space, ns, in_names, out_names, undec_names
// description: write a labelling computed outside the database onto the arguments of a namespace (label := IN/OUT/UNDEC by name, with its mark :In/:Out/:Undec as the solver writes it), one batched UNWIND; the write-back of bench grounded's export path
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param in_names => ['a1']
// :param out_names => ['a2']
// :param undec_names => []
// Three flat lists of names (the driver encodes flat string lists fastest, see export_framework),
// each name looked up on the unique (space, ns, name) index. Only `label` is written (the solver
// also writes `wave`): the export path's write-back is the cheaper of the two. The mark follows the
// label exactly as in the solver's finish (start_grounded, propagate_waves). Setting a label to the value it already has (or a mark
// the node has) is not a change, as for the solver's finish step.
// `USING INDEX SEEK`: with a plain index hint the planner scanned the whole index per name
// (1,001,000 db hits for 1,000 names, 1-1.6 s).
UNWIND [x IN $in_names | [x, 'IN']] + [x IN $out_names | [x, 'OUT']] + [x IN $undec_names | [x, 'UNDEC']] AS row
MATCH (a:Argument)
USING INDEX SEEK a:Argument(space, ns, name)
WHERE a.space = $space AND a.ns = $ns AND a.name = row[0]
SET a.label = row[1]
FOREACH (_ IN CASE WHEN row[1] = 'IN' THEN [1] ELSE [] END | SET a:In REMOVE a:Out:Undec)
FOREACH (_ IN CASE WHEN row[1] = 'OUT' THEN [1] ELSE [] END | SET a:Out REMOVE a:In:Undec)
FOREACH (_ IN CASE WHEN row[1] = 'UNDEC' THEN [1] ELSE [] END | SET a:Undec REMOVE a:In:Out)
RETURN count(*) AS written
