// name: agent.list_agents
// mode: read
// params: space
// description: every agent that wrote to or was registered in the space
// :param space => 'default'
MATCH (a:Agent {space: $space})
USING INDEX a:Agent(space, id)
WHERE a.id IS NOT NULL
RETURN a {.id, .kind, .description, registered: coalesce(a.registered, false)} AS agent
ORDER BY a.id
