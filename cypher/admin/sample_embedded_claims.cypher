// name: admin.sample_embedded_claims
// mode: read
// params: space, limit, dimension
// description: up to $limit embedded claims of the right dimension (id, space, vector) to probe the vector index with
// cross-space: doctor samples claims of every space when $space is null (the vector index is shared)
// :param space => null
// :param limit => 100
// :param dimension => 384
MATCH (c:Claim)
WHERE ($space IS NULL OR c.space = $space) AND c.embedding IS NOT NULL AND size(c.embedding) = $dimension
RETURN c.space AS space, c.id AS id, c.embedding AS embedding
LIMIT $limit
