// name: perspective.prefilter_scores
// mode: read
// params: space, names, observations
// description: the embedding pre-filter of encode(): for each observation x perspective, the best cosine between the observation's embedding and the perspective's concepts and goal (raw cosine in -1..1), with the concept that scored it
// :param space => 'default'
// :param names => ['risk']
// :param observations => [{id: 'ep-1', embedding: [0.1, 0.2]}]
// vector.similarity.cosine is normalised to 0..1 as (1 + cos) / 2; 2 * s - 1 gives the cosine back.
UNWIND $observations AS o
MATCH (p:Perspective {space: $space})
WHERE p.name IN $names
CALL (o, p) {
  MATCH (p)-[:HAS_CONCEPT]->(c:Concept)
  WITH c, 2 * vector.similarity.cosine(o.embedding, c.embedding) - 1 AS s
  ORDER BY s DESC, c.name
  LIMIT 1
  RETURN c.name AS concept, s AS concept_score
}
RETURN o.id AS observation, p.name AS perspective, concept, concept_score,
       2 * vector.similarity.cosine(o.embedding, p.embedding) - 1 AS goal_score
