// name: explore.why_believed
// mode: read
// params: space, key
// description: why is this fact believed: its current claim and every chain of justifications back to the evidence (episodes and base claims)
// :param space => 'default'
// :param key => 'user.risk_tolerance'
// Only maximal chains are returned (each starts at a node nothing supports), at most 12 steps deep.
MATCH (f:Fact {space: $space, key: $key})-[current:CURRENT]->(c:Claim)
OPTIONAL MATCH support = (source)-[:PREMISE_OF|JUSTIFIES*1..12]->(c)
  WHERE all(n IN nodes(support) WHERE n.space = $space)
    AND NOT EXISTS { ()-[:PREMISE_OF|JUSTIFIES]->(source) }
RETURN f, current, c, support
LIMIT 500
