// name: fact.drop_key_schema
// mode: write
// params: space, agent, at
// description: drop the space's key schema: its active version becomes dropped (every version stays in the history)
// :param space => 'default'
// :param agent => 'user:admin'
// :param at => '2026-12-04T10:00:00Z'
MATCH (s:KeySchema {space: $space, status: 'active'})
SET s.status = 'dropped', s.ended_at = datetime($at), s.ended_by = $agent
RETURN s.version AS version
