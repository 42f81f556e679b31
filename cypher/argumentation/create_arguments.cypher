// name: argumentation.create_arguments
// mode: write
// params: space, ns, names
// description: create one Argument node per name in a namespace (names already validated unique)
// :param space => 'default'
// :param ns => 'framework:ex1'
// :param names => ['a1', 'a2', 'a3']
UNWIND $names AS name
CREATE (:Argument {space: $space, ns: $ns, name: name})
RETURN count(*) AS created
