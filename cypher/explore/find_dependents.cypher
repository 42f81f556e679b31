// name: explore.find_dependents
// mode: read
// params: space, id
// description: what depends on this evidence: every conclusion downstream of an episode or a claim along its justifications
// :param space => 'default'
// :param id => 'ep-1'
CALL () {
  MATCH (e:Episode {space: $space, id: $id})
  RETURN e
  UNION
  MATCH (e:Claim {space: $space, id: $id})
  RETURN e
}
OPTIONAL MATCH downstream = (e)-[:PREMISE_OF|JUSTIFIES*2..12]->(c:Claim)
  WHERE all(n IN nodes(downstream) WHERE n.space = $space)
    AND NOT EXISTS { (c)-[:PREMISE_OF]->() }
RETURN e, downstream
LIMIT 500
