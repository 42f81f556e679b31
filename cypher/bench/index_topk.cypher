// name: bench.index_topk
// mode: read
// params: space, embedding, k, fetch
// description: bench recall: the k nearest neighbours of a vector through the claim_embedding vector index (approximate, HNSW), asking the index for fetch candidates (fetch = k: the raw index; fetch > k: the over-fetch recall uses), filtered to the bench space
// :param space => '__bench_recall__'
// :param embedding => [0.1, 0.2]
// :param k => 10
// :param fetch => 50
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node, score
WITH node, score WHERE node.space = $space
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $k
