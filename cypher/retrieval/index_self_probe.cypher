// name: retrieval.index_self_probe
// mode: read
// params: probes, k
// description: for each probe {space, id, embedding}, is that claim among the k nearest neighbours of its own vector in claim_embedding? returned: how many neighbours came back and the lowest score among them (all k at score 1.0: exact twins of the vector, possibly in other spaces, fill the k places and the probe is inconclusive at this k)
// cross-space: doctor probes the shared claim_embedding index with claims of any space (each probe names its space)
// :param probes => [{space: 'default', id: 'c-1', embedding: [0.1, 0.2]}]
// :param k => 10
UNWIND $probes AS p
CALL db.index.vector.queryNodes('claim_embedding', $k, p.embedding) YIELD node, score
WITH p, collect([node.space, node.id]) AS hits, min(score) AS lowest
RETURN p.space AS space, p.id AS id, [p.space, p.id] IN hits AS found, size(hits) AS returned, lowest
