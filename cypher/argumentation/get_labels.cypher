// name: argumentation.get_labels
// mode: read
// params: space, ns
// description: the stored grounded labelling of a namespace: argument names by label (unlabelled = not solved yet)
// :param space => 'default'
// :param ns => 'framework:ex1'
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
RETURN count(a) AS arguments,
       collect(CASE a.label WHEN 'IN' THEN a.name END) AS in_names,
       collect(CASE a.label WHEN 'OUT' THEN a.name END) AS out_names,
       collect(CASE a.label WHEN 'UNDEC' THEN a.name END) AS undec_names,
       sum(CASE WHEN a.label IS NULL THEN 1 ELSE 0 END) AS unlabelled,
       coalesce(max(CASE a.label WHEN 'IN' THEN a.wave END), 0) AS waves
