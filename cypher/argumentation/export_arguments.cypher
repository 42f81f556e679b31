// name: argumentation.export_arguments
// mode: read
// params: space, ns
// description: every argument name of a namespace, as one list (one record: fast to ship)
// :param space => 'default'
// :param ns => 'framework:ex1'
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
RETURN collect(a.name) AS names
