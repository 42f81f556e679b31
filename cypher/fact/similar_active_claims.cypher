// name: fact.similar_active_claims
// mode: read
// params: space, embedding, k, fetch, agent
// description: the k active claims of the space closest to a vector (optionally of one agent), for key resolution and pass 1
// :param space => 'default'
// :param embedding => [0.1, 0.2]
// :param k => 3
// :param fetch => 50
// :param agent => null
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node AS c, score
WITH c, score
WHERE c.space = $space AND c.status = 'active' AND ($agent IS NULL OR c.agent = $agent)
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(c.created_at)} AS claim, score
ORDER BY score DESC
LIMIT $k
