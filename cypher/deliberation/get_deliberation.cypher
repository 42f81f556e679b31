// name: deliberation.get_deliberation
// mode: read
// params: space, id
// description: one deliberation with its proposals (label, citations with their current status), the attacks between them (reason, by), and whether it is stale (a cited interpretation is no longer active)
// :param space => 'default'
// :param id => 'd-1'
MATCH (d:Deliberation {space: $space, id: $id})
CALL (d) {
  OPTIONAL MATCH (x:Proposal)-[:ANSWERS]->(d)
  WITH x ORDER BY x.perspective
  RETURN collect(x {.id, .perspective, .text, .label, .citations,
                    cited: [(x)-[:CITES]->(c:Claim) | c {.id, .text, .status, .episode, .perspective}]}) AS proposals
}
CALL (d) {
  OPTIONAL MATCH (a:Proposal)-[:ANSWERS]->(d)
  OPTIONAL MATCH (a)-[r:ATTACKS]->(b:Proposal)-[:ANSWERS]->(d)
  WITH a, r, b WHERE r IS NOT NULL
  WITH a, r, b ORDER BY a.perspective, b.perspective
  RETURN collect({attacker: a.id, target: b.id, by: r.by, reason: r.reason}) AS attacks
}
RETURN d {.id, .query, .mode, .answer, .parts, .batched, .k, .perspectives, .abstained, .rejections,
          at: toString(d.at)} AS deliberation,
       proposals, attacks
