// name: perspective.list_interpretations
// mode: read
// params: space, perspective, status
// description: the interpretations of one perspective (all statuses when status is null), oldest first, with their episode and concepts
// :param space => 'default'
// :param perspective => 'risk'
// :param status => null
MATCH (c:Claim {space: $space, kind: 'interpretation'})
USING INDEX c:Claim(space, kind)
// The label is tested as a value: as a label predicate the planner joined the seek with a scan of
// every :Interpretation of the store (free while the label was empty, then cached).
WHERE 'Interpretation' IN labels(c) AND c.perspective = $perspective AND ($status IS NULL OR c.status = $status)
RETURN c {.id, .text, .kind, .agent, .status, .confidence, .perspective, .episode,
          created_at: toString(c.created_at)} AS claim,
       [(c)-[:INSTANCE_OF]->(k:Concept) | k.name] AS concepts
ORDER BY c.created_at, c.id
