// name: admin.embedding_coverage
// mode: read
// params: space, dimension
// description: claims that should carry an embedding (all with text) and how many do, with the right dimension
// cross-space: doctor checks the embeddings of every space when $space is null
// :param space => null
// :param dimension => 384
MATCH (c:Claim)
WHERE ($space IS NULL OR c.space = $space) AND c.text IS NOT NULL
RETURN count(c) AS claims,
       count(c.embedding) AS embedded,
       count(c) - count(c.embedding) AS missing,
       sum(CASE WHEN c.embedding IS NOT NULL AND size(c.embedding) <> $dimension THEN 1 ELSE 0 END) AS wrong_dimension
