// name: check.current_support
// mode: read
// params: space, limit
// description: invariant: every active claim that has justifications has at least one (not retired) whose premises are all current: an episode not retracted, a claim that is active (a claim without justification is a base claim)
// Cost: one index seek on Claim(space, status) for the active claims, then their justifications and
// premises (linear in the space's active claims + justification edges).
// :param space => 'default'
// :param limit => 100
MATCH (c:Claim)
WHERE c.space = $space AND c.status = 'active'
  AND EXISTS { (:Justification)-[:JUSTIFIES]->(c) }
  AND NOT EXISTS {
    MATCH (j:Justification)-[:JUSTIFIES]->(c)
    WHERE NOT coalesce(j.retired, false)
      AND NOT EXISTS {
        MATCH (p)-[:PREMISE_OF]->(j)
        WHERE NOT ((p:Episode AND coalesce(p.status, 'active') <> 'retracted') OR (p:Claim AND p.status = 'active'))
      }
  }
WITH collect(c.id) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
