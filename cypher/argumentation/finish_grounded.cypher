// name: argumentation.finish_grounded
// mode: write
// params: space, ns
// description: grounded labelling, step 3: every argument still unlabelled is UNDEC; return the argument names by label and the number of waves
// :param space => 'default'
// :param ns => 'framework:ex1'
// Only the UNDEC arguments are written. `undefeated` stays on every argument as a by-product:
// the number of attack edges it receives from arguments that are not OUT (0 for IN arguments).
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
FOREACH (_ IN CASE WHEN a.label IS NULL THEN [1] ELSE [] END | SET a.label = 'UNDEC')
RETURN count(a) AS arguments,
       collect(CASE a.label WHEN 'IN' THEN a.name END) AS in_names,
       collect(CASE a.label WHEN 'OUT' THEN a.name END) AS out_names,
       collect(CASE a.label WHEN 'UNDEC' THEN a.name END) AS undec_names,
       0 AS unlabelled,
       coalesce(max(CASE a.label WHEN 'IN' THEN a.wave END), 0) AS waves
