// name: episode.create_episode
// mode: write
// params: space, id, text, agent, agent_kind, conversation, at, rejections
// description: store one immutable episode (raw evidence) and its writer; idempotent on (space, id)
// :param space => 'default'
// :param id => 'ep-1'
// :param text => 'I am cautious with money.'
// :param agent => 'user:alice'
// :param agent_kind => 'user'
// :param conversation => 'conv-1'
// :param at => '2026-12-02T10:00:00Z'
// :param rejections => []
// The rejections are JSON strings, one per extracted fact refused before writing (text, key, value,
// reason), kept on the episode so what memory was NOT told is visible next to what was said.
// An empty list sets no property.
MERGE (a:Agent {space: $space, id: $agent})
ON CREATE SET a.kind = $agent_kind
MERGE (e:Episode {space: $space, id: $id})
ON CREATE SET e.text = $text, e.agent = $agent, e.conversation = $conversation, e.at = datetime($at),
              e.rejections = CASE WHEN size($rejections) > 0 THEN $rejections ELSE null END
MERGE (a)-[:WROTE]->(e)
RETURN e.id AS id, e.text AS text, e.agent AS agent, e.conversation AS conversation, toString(e.at) AS at,
       coalesce(e.rejections, []) AS rejections
