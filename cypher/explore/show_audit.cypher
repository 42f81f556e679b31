// name: explore.show_audit
// mode: read
// params: space, id
// description: what changed in this audit: its roots, the claims it withdrew, retained, reinstated, made stale or re-derived, and the justifications between them
// :param space => 'default'
// :param id => 'a-1'
MATCH (a:Audit {space: $space, id: $id})
OPTIONAL MATCH (a)-[action]->(n)
  WHERE type(action) IN ['ROOT', 'WITHDREW', 'RETAINED', 'REINSTATED', 'STALED', 'REDERIVED']
WITH a, collect(action) AS actions, collect(n) AS touched
CALL (touched) {
  UNWIND touched AS m
  OPTIONAL MATCH link = (p)-[:PREMISE_OF]->(:Justification)-[:JUSTIFIES]->(m)
    WHERE p IN touched
  RETURN collect(link) AS links
}
RETURN a, actions, touched, links
