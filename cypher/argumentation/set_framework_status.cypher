// name: argumentation.set_framework_status
// mode: write
// params: space, name, status
// description: mark a framework 'ready' (import complete) or 'deleting'
// :param space => 'default'
// :param name => 'ex1'
// :param status => 'ready'
MATCH (f:Framework {space: $space, name: $name})
SET f.status = $status
RETURN f {.name, .ns, .source, .format, .arguments, .attacks, .status, created_at: toString(f.created_at)} AS framework
