// name: support.close_audit
// mode: write
// params: space, id
// description: close an audit that touched no region (mode none, or nothing downstream): zero counts
// :param space => 'default'
// :param id => 'a-1'
MATCH (a:Audit {space: $space, id: $id})
SET a.region = 0, a.waves = 0, a.withdrew = 0, a.retained = 0, a.reinstated = 0
RETURN a.id AS id
