// name: agent.register_agent
// mode: write
// params: space, id, kind, description, at
// description: register (or describe) an agent of the space
// :param space => 'default'
// :param id => 'agent-a'
// :param kind => 'agent'
// :param description => 'calendar assistant'
// :param at => '2026-01-01T00:00:00Z'
MERGE (a:Agent {space: $space, id: $id})
ON CREATE SET a.created_at = datetime($at)
SET a.kind = $kind, a.description = coalesce($description, a.description), a.registered = true
RETURN a {.id, .kind, .description, .registered} AS agent
