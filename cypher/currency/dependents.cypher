// name: currency.dependents
// mode: read
// params: space, id, limit
// description: the conclusions that rest on a claim or episode (downstream along PREMISE_OF/JUSTIFIES), nearest first, with the depth and the justification they depend through
// :param space => 'default'
// :param id => 'c-1'
// :param limit => 200
// The BFS visits each downstream node once (DISTINCT endpoints); the depth and the justification of
// each dependent come from one shortest path to it. At most $limit dependents are returned.
CALL () {
  MATCH (n:Claim {space: $space, id: $id}) RETURN n
  UNION
  MATCH (n:Episode {space: $space, id: $id}) RETURN n
}
MATCH (n)-[:PREMISE_OF|JUSTIFIES*1..]->(c:Claim)
WITH DISTINCT n, c
WHERE c.space = $space AND c <> n
WITH n, c LIMIT $limit
MATCH p = shortestPath((n)-[:PREMISE_OF|JUSTIFIES*1..]->(c))
WITH c, length(p) / 2 AS depth, nodes(p)[size(nodes(p)) - 2] AS j
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
          created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim,
       depth, j.id AS via, j.rule AS rule
ORDER BY depth, claim.created_at, claim.id
