// name: argumentation.get_framework
// mode: read
// params: space, name
// description: one framework by name, whatever its status
// :param space => 'default'
// :param name => 'ex1'
MATCH (f:Framework {space: $space, name: $name})
RETURN f {.name, .ns, .source, .format, .arguments, .attacks, .status, created_at: toString(f.created_at)} AS framework
