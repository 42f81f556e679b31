// name: episode.create_episode
// mode: write
// params: space, id, text, agent, agent_kind, conversation, at
// description: store one immutable episode (raw evidence) and its writer; idempotent on (space, id)
// :param space => 'default'
// :param id => 'ep-1'
// :param text => 'I am cautious with money.'
// :param agent => 'user:alice'
// :param agent_kind => 'user'
// :param conversation => 'conv-1'
// :param at => '2026-12-02T10:00:00Z'
MERGE (a:Agent {space: $space, id: $agent})
ON CREATE SET a.kind = $agent_kind
MERGE (e:Episode {space: $space, id: $id})
ON CREATE SET e.text = $text, e.agent = $agent, e.conversation = $conversation, e.at = datetime($at)
MERGE (a)-[:WROTE]->(e)
RETURN e.id AS id, e.text AS text, e.agent AS agent, e.conversation AS conversation, toString(e.at) AS at
