// name: support.prepare_derive
// mode: read
// params: space, ids, sig
// description: for derive(): the named premises (kind, status) and the claim an earlier derive() created for the same statement (same key and text), found by its signature
// :param space => 'default'
// :param ids => ['ep-1', 'c-1']
// :param sig => '3f2a9c'
CALL () {
  UNWIND $ids AS nid
  CALL (nid) {
    MATCH (n:Episode {space: $space, id: nid})
    RETURN 'episode' AS kind, coalesce(n.status, 'active') AS status
    UNION
    MATCH (n:Claim {space: $space, id: nid})
    RETURN 'claim' AS kind, n.status AS status
  }
  RETURN collect({id: nid, kind: kind, status: status}) AS premises
}
OPTIONAL MATCH (c:Claim {space: $space, sig: $sig})
RETURN premises,
       c {.id, .key, .value, .text, .kind, .agent, .status, .confidence,
          created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim,
       [(j:Justification)-[:JUSTIFIES]->(c) | [(p)-[:PREMISE_OF]->(j) | p.id]] AS families
