// name: perspective.search_interpretations
// mode: read
// params: space, perspective, embedding, k, fetch
// description: retrieval by perspective: the active interpretations of one perspective nearest to a query embedding, through the claim_embedding vector index (over-fetch, then filter to label Interpretation + perspective + active + space); seen = rows the index returned, so the caller can widen the fetch
// :param space => 'default'
// :param perspective => 'risk'
// :param embedding => [0.1, 0.2]
// :param k => 5
// :param fetch => 100
CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) YIELD node, score
WITH collect({c: node, score: score}) AS rows
WITH size(rows) AS seen,
     [r IN rows WHERE 'Interpretation' IN labels(r.c) AND r.c.space = $space AND r.c.perspective = $perspective
                      AND r.c.status = 'active'][..$k] AS kept
CALL (kept) {
  UNWIND kept AS r
  WITH r.c AS c, r.score AS score
  RETURN collect({claim: c {.id, .text, .kind, .agent, .status, .confidence, .perspective, .episode,
                            created_at: toString(c.created_at)},
                  concepts: [(c)-[:INSTANCE_OF]->(k:Concept) | k.name],
                  score: score}) AS hits
}
RETURN seen, hits
