// name: retrieval.fulltext_candidates
// mode: read
// params: space, text, fetch, perspective, interpretations, keys, prefix, include_inactive, at
// description: hybrid recall, fulltext half: the fetch best claim_text matches of an escaped Lucene query, with the same filters as retrieval.vector_candidates; fetched = rows the index returned
// :param space => 'default'
// :param text => 'risk tolerance'
// :param fetch => 50
// :param perspective => null
// :param interpretations => false
// :param keys => null
// :param prefix => null
// :param include_inactive => false
// :param at => null
CALL db.index.fulltext.queryNodes('claim_text', $text, {limit: $fetch}) YIELD node, score
WITH collect({c: node, score: score}) AS rows
CALL (rows) {
  UNWIND rows AS r
  WITH r.c AS c, r.score AS score
  WHERE c.space = $space
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
  WITH c, score,
       CASE WHEN $at IS NULL THEN c.status
            WHEN revised IS NOT NULL THEN revised
            WHEN NOT EXISTS { (c)-[:HAS_REVISION]->(:Revision) } AND c.created_at <= datetime($at) THEN c.status
       END AS status_then
  WHERE status_then IS NOT NULL AND ($include_inactive OR status_then = 'active')
  RETURN collect({id: c.id, score: score, status_then: status_then, key: c.key, value: c.value}) AS hits
}
RETURN size(rows) AS fetched, hits
