// name: support.world_fingerprint
// mode: read
// params: space
// description: what a paired world is made of: node texts, timestamps and embeddings, influence edges (premise -> conclusion) and justification grouping
// :param space => 'default'
CALL () {
  MATCH (c:Claim {space: $space})
  USING INDEX c:Claim(space, status)
  WHERE c.status IS NOT NULL
  RETURN collect([c.text, toString(c.created_at), c.embedding]) AS claims
}
CALL () {
  MATCH (e:Episode {space: $space})
  WHERE e.at IS NOT NULL
  RETURN collect([e.text, toString(e.at)]) AS episodes
}
CALL () {
  MATCH (c:Claim {space: $space})
  USING INDEX c:Claim(space, status)
  WHERE c.status IS NOT NULL
  MATCH (p)-[:PREMISE_OF]->(j:Justification)-[:JUSTIFIES]->(c)
  WITH DISTINCT p, c
  RETURN collect([p.text, c.text]) AS influence
}
CALL () {
  MATCH (c:Claim {space: $space})
  USING INDEX c:Claim(space, status)
  WHERE c.status IS NOT NULL
  MATCH (j:Justification)-[:JUSTIFIES]->(c)
  RETURN collect([c.text, [(p)-[:PREMISE_OF]->(j) | p.text]]) AS families
}
RETURN claims, episodes, influence, families
