// name: explore.show_framework
// mode: read
// params: space, name, limit
// description: an imported argumentation framework: its arguments with their grounded labels and the attacks between them (the first $limit arguments)
// :param space => 'default'
// :param name => 'ex1'
// :param limit => 300
MATCH (fw:Framework {space: $space, name: $name})
MATCH (a:Argument {space: $space, ns: fw.ns})
WITH fw, a ORDER BY a.name LIMIT $limit
WITH fw, collect(a) AS arguments
UNWIND arguments AS a
OPTIONAL MATCH (a)-[attack:ATTACKS]->(b:Argument)
  WHERE b IN arguments
RETURN fw, a, attack, b
