// name: argumentation.create_framework
// mode: write
// params: space, name, ns, source, format, arguments, attacks, status, created_at
// description: create the Framework node of an imported attack graph (status 'importing' until every argument and attack is stored, then 'ready')
// :param space => 'default'
// :param name => 'ex1'
// :param ns => 'framework:ex1'
// :param source => 'ex1.apx'
// :param format => 'apx'
// :param arguments => 5
// :param attacks => 6
// :param status => 'ready'
// :param created_at => '2026-12-02T10:00:00Z'
CREATE (f:Framework {space: $space, name: $name})
SET f.ns = $ns, f.source = $source, f.format = $format, f.arguments = $arguments,
    f.attacks = $attacks, f.status = $status, f.created_at = datetime($created_at)
RETURN f {.name, .ns, .source, .format, .arguments, .attacks, .status, created_at: toString(f.created_at)} AS framework
