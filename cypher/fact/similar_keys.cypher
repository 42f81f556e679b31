// name: fact.similar_keys
// mode: read
// params: space, embedding, k, fetch
// description: candidate keys for a prompt: the k registered keys whose description is closest (vector index)
// :param space => 'default'
// :param embedding => [0.1, 0.2]
// :param k => 10
// :param fetch => 100
CALL db.index.vector.queryNodes('fact_embedding', $fetch, $embedding) YIELD node AS f, score
WITH f, score WHERE f.space = $space
RETURN f.key AS key, f.description AS description, score
ORDER BY score DESC
LIMIT $k
