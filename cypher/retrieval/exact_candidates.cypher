// name: retrieval.exact_candidates
// mode: read
// params: space, embedding, fetch, perspective, interpretations, keys, prefix, include_inactive, at
// description: hybrid recall, vector half for a small space: the fetch nearest claims of the space by an exact cosine scan over its claims (no global index top-k that other spaces can crowd out), with the filters of retrieval.vector_candidates; fetched = claims scanned
// Used when retrieval.count_candidates_capped finds at most RetrievalService.exact_scan_max claims;
// the score is vector.similarity.cosine, on the same [0, 1] scale as the vector index's score.
// :param space => 'default'
// :param embedding => [0.1, 0.2]
// :param fetch => 50
// :param perspective => null
// :param interpretations => false
// :param keys => null
// :param prefix => null
// :param include_inactive => false
// :param at => null
MATCH (c:Claim)
WHERE c.space = $space AND c.id IS NOT NULL AND c.embedding IS NOT NULL AND size(c.embedding) = size($embedding)
  AND CASE WHEN $perspective IS NULL THEN ($interpretations OR NOT c:Interpretation)
           ELSE (c:Interpretation AND c.perspective = $perspective) END
  AND ($keys IS NULL OR c.key IN $keys)
  AND ($prefix IS NULL OR c.key STARTS WITH $prefix)
CALL (c) {
  OPTIONAL MATCH (c)-[:HAS_REVISION]->(rev:Revision)
  WHERE $at IS NOT NULL AND rev.at <= datetime($at)
  WITH rev ORDER BY rev.at DESC, coalesce(rev.seq, 0) DESC, rev.id DESC
  RETURN head(collect(rev.status)) AS revised
}
WITH c, CASE WHEN $at IS NULL THEN c.status
             WHEN revised IS NOT NULL THEN revised
             WHEN NOT EXISTS { (c)-[:HAS_REVISION]->(:Revision) } AND c.created_at <= datetime($at) THEN c.status
        END AS status_then
WHERE status_then IS NOT NULL AND ($include_inactive OR status_then = 'active')
WITH c, status_then, vector.similarity.cosine(c.embedding, $embedding) AS score
ORDER BY score DESC, c.id
WITH collect({id: c.id, score: score, status_then: status_then, key: c.key, value: c.value}) AS ranked
RETURN size(ranked) AS fetched, ranked[..$fetch] AS hits
