// name: retrieval.vector_search
// mode: read
// params: space, embedding, k, fetch
// description: nearest active claims of one space through the claim_embedding vector index (over-fetches, then filters)
// :param space => 'default'
// :param embedding => [0.1, 0.2]
// :param k => 5
// :param fetch => 50
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node AS c, score
WHERE c.space = $space AND c.status = 'active'
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
       created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim, score
ORDER BY score DESC
LIMIT $k
