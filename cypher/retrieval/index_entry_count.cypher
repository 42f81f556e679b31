// name: retrieval.index_entry_count
// mode: read
// params: k, embedding
// description: how many nodes the claim_embedding index returns for a query asking for k neighbours (k >= the embedded claims: the index's entry count, which SHOW INDEXES does not report)
// cross-space: doctor counts the entries of the whole claim_embedding index, shared by every space
// :param k => 1000
// :param embedding => [0.1, 0.2]
CALL db.index.vector.queryNodes('claim_embedding', $k, $embedding) YIELD node
RETURN count(node) AS n
