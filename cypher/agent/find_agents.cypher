// name: agent.find_agents
// mode: read
// params: space, ids
// description: which of the given agent ids are registered in the space
// :param space => 'default'
// :param ids => ['agent-a']
UNWIND $ids AS aid
MATCH (a:Agent {space: $space, id: aid})
WHERE a.registered = true
RETURN a.id AS id, a.kind AS kind
