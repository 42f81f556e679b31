// name: bench.exact_topk
// mode: read
// params: space, embedding, k
// description: bench recall: the exact k nearest neighbours by a brute-force cosine scan over every active claim of the bench space (what the vector index avoids)
// :param space => '__bench_recall__'
// :param embedding => [0.1, 0.2]
// :param k => 10
MATCH (c:Claim {space: $space, status: 'active'})
WITH c, vector.similarity.cosine(c.embedding, $embedding) AS score
ORDER BY score DESC
LIMIT $k
RETURN c.id AS id, score
