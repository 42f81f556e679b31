// name: perspective.list_perspectives
// mode: read
// params: space, names
// description: the perspectives of a space (all when names is null), each with its goal, relevance threshold, concepts and how many active interpretations it holds
// :param space => 'default'
// :param names => null
MATCH (p:Perspective {space: $space})
USING INDEX p:Perspective(space, name)
WHERE p.name IS NOT NULL AND ($names IS NULL OR p.name IN $names)
CALL (p) {
  OPTIONAL MATCH (p)-[:HAS_CONCEPT]->(c:Concept)
  WITH c ORDER BY c.name
  RETURN collect(c {.name, .description}) AS concepts
}
CALL (p) {
  OPTIONAL MATCH (i:Claim {space: $space, kind: 'interpretation'})
  USING INDEX i:Claim(space, kind)
  // the label as a value: a label predicate was planned as a join with a scan of every :Interpretation
  WHERE 'Interpretation' IN labels(i) AND i.perspective = p.name
  RETURN count(i) AS interpretations, count(CASE WHEN i.status = 'active' THEN 1 END) AS active
}
RETURN p {.id, .name, .goal, .relevance, created_at: toString(p.created_at)} AS perspective,
       concepts, interpretations, active
ORDER BY p.name
