// name: deliberation.create_deliberation
// mode: write
// params: space, id, query, at, batched, k, perspectives, abstained, rejections, proposals
// description: store one deliberation with its proposals: (Perspective)-[:PROPOSED]->(Proposal)-[:ANSWERS]->(Deliberation), (Proposal)-[:CITES]->(Claim); the attacks and labels are added in the same transaction by the service
// :param space => 'default'
// :param id => 'd-1'
// :param query => 'Should the subsidiary get the same discount?'
// :param at => '2026-12-03T10:00:00Z'
// :param batched => true
// :param k => 5
// :param perspectives => ['finance', 'risk']
// :param abstained => []
// :param rejections => []
// :param proposals => [{id: 'pr-1', perspective: 'risk', text: 'No: it would set a precedent', citations: ['i-1']}]
// The rejections are JSON strings, one per rejected LLM item (stage, perspective, item, reason), kept visible on the node.
CREATE (d:Deliberation {space: $space, id: $id})
SET d.query = $query, d.at = datetime($at), d.batched = $batched, d.k = $k, d.perspectives = $perspectives,
    d.abstained = $abstained, d.rejections = $rejections, d.mode = null
WITH d
CALL (d) {
  UNWIND $proposals AS pr
  MATCH (p:Perspective {space: $space, name: pr.perspective})
  CREATE (x:Proposal {id: pr.id})
  SET x.space = $space, x.deliberation = $id, x.perspective = pr.perspective, x.text = pr.text,
      x.citations = pr.citations
  CREATE (p)-[:PROPOSED]->(x)
  CREATE (x)-[:ANSWERS]->(d)
  WITH x, pr
  CALL (x, pr) {
    UNWIND pr.citations AS cid
    MATCH (c:Claim {space: $space, id: cid})
    CREATE (x)-[:CITES]->(c)
    RETURN count(c) AS cited
  }
  RETURN count(x) AS proposals, sum(cited) AS citations
}
RETURN d.id AS id, proposals, citations
