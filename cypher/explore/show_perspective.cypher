// name: explore.show_perspective
// mode: read
// params: space, name
// description: a perspective's knowledge graph: its concepts, the interpretations that instantiate them and the episodes they interpret
// :param space => 'default'
// :param name => 'finance'
MATCH (p:Perspective {space: $space, name: $name})-[has:HAS_CONCEPT]->(k:Concept)
OPTIONAL MATCH (i:Interpretation {space: $space})-[instance:INSTANCE_OF]->(k)
OPTIONAL MATCH interprets = (e:Episode)-[:PREMISE_OF]->(:Justification)-[:JUSTIFIES]->(i)
RETURN p, has, k, instance, i, interprets
LIMIT 1000
