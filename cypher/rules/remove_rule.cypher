// name: rules.remove_rule
// mode: write
// params: space, name, at
// description: mark a rule's active version removed; its instances stop being evaluated (retire_justifications and delete_instances follow in the same transaction)
// :param space => 'default'
// :param name => 'work_timezone'
// :param at => '2026-12-04T10:00:00Z'
MATCH (r:Rule {space: $space, name: $name, status: 'active'})
SET r.status = 'removed', r.removed_at = datetime($at)
RETURN r.version AS version
