// name: admin.index_self_probe
// mode: read
// params: probes, k
// description: for each probe {space, id, embedding}, is that claim among the k nearest neighbours of its own vector in claim_embedding? returned: how many neighbours came back and the lowest score among them (fewer than k: the index holds no more entries, the answer is exhaustive; all k at score 1.0: exact twins of the vector, possibly in other spaces, fill the k places). indexable false: a zero or non-finite vector, which Neo4j does not index and refuses as a query (it is not probed)
// cross-space: doctor probes the shared claim_embedding index with claims of any space (each probe names its space)
// :param probes => [{space: 'default', id: 'c-1', embedding: [0.1, 0.2]}]
// :param k => 10
// The index is approximate (HNSW): the claim can be missing from the top k of its own vector
// though it is indexed; the caller asks again with a larger k (k is also the search's breadth).
UNWIND $probes AS p
WITH p, reduce(sq = 0.0, x IN p.embedding | sq + x * x) AS sq
WITH p, sq > 0.0 AND sq < 1.0e300 AS indexable
CALL (p, indexable) {
  WITH p WHERE indexable
  CALL db.index.vector.queryNodes('claim_embedding', $k, p.embedding) YIELD node, score
  RETURN collect([node.space, node.id]) AS hits, min(score) AS lowest
}
RETURN p.space AS space, p.id AS id, indexable, [p.space, p.id] IN hits AS found, size(hits) AS returned, lowest
