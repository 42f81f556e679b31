// name: explore.find_stale
// mode: read
// params: space
// description: stale conclusions: claims whose premises are no longer current, the audit that made each stale and the premises it rests on
// :param space => 'default'
MATCH (c:Claim {space: $space, status: 'stale'})
OPTIONAL MATCH (a:Audit)-[staled:STALED]->(c)
OPTIONAL MATCH premises = (p)-[:PREMISE_OF]->(:Justification)-[:JUSTIFIES]->(c)
RETURN c, a, staled, premises
LIMIT 500
