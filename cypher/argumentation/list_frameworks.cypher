// name: argumentation.list_frameworks
// mode: read
// params: space
// description: every framework of a space, by name
// :param space => 'default'
MATCH (f:Framework)
WHERE f.space = $space AND f.name IS NOT NULL  // seeks the (space, name) uniqueness index
RETURN f {.name, .ns, .source, .format, .arguments, .attacks, .status, created_at: toString(f.created_at)} AS framework
ORDER BY f.name
