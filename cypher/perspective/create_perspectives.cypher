// name: perspective.create_perspectives
// mode: write
// params: space, perspectives, created_at
// description: create perspectives (goal, relevance threshold, goal embedding) and their ontologies: one Concept node per term with its embedding, linked by HAS_CONCEPT
// :param space => 'default'
// :param perspectives => [{id: 'p1', name: 'risk', goal: 'Spot legal and precedent risks', relevance: 0.2, embedding: null, concepts: [{name: 'Precedent', description: 'a concession others can claim', embedding: null}]}]
// :param created_at => '2026-12-03T10:00:00Z'
// Names are unique per space (constraint perspective_space_name): the service checks first, the
// constraint catches a concurrent writer.
UNWIND $perspectives AS spec
CREATE (p:Perspective {space: $space, id: spec.id})
SET p.name = spec.name, p.goal = spec.goal, p.relevance = spec.relevance, p.embedding = spec.embedding,
    p.created_at = datetime($created_at)
WITH p, spec
CALL (p, spec) {
  UNWIND spec.concepts AS con
  CREATE (c:Concept {space: $space, perspective: spec.name, name: con.name})
  SET c.description = con.description, c.embedding = con.embedding
  CREATE (p)-[:HAS_CONCEPT]->(c)
  RETURN count(c) AS concepts
}
RETURN p.id AS id, p.name AS name, concepts
