// name: fact.move_versions
// mode: write
// params: space, source, into, current, audit, at
// description: merge a fact into another: every version of source becomes a version of into (VERSION_OF and key), into's one CURRENT edge points at current, source's disputes follow, source stays as an alias (merged_into, MERGED_INTO) and its own aliases are re-pointed; the merge audit names both keys
// :param space => 'default'
// :param source => 'user.location.city'
// :param into => 'user.city'
// :param current => 'c-2'
// :param audit => 'a-1'
// :param at => '2026-12-04T10:00:00Z'
// Runs under both facts' locks, after the claims whose status changes were revised (the loser of
// two active claims no longer carries active_key, so the winner can take into's key here).
MATCH (s:Fact {space: $space, key: $source})
MATCH (t:Fact {space: $space, key: $into})
OPTIONAL MATCH (s)-[sc:CURRENT]->(:Claim)
DELETE sc
WITH s, t
CALL (s, t) {
  OPTIONAL MATCH (t)-[tc:CURRENT]->(old:Claim)
  WHERE $current IS NULL OR old.id <> $current
  DELETE tc
}
CALL (s, t) {
  MATCH (s)<-[v:VERSION_OF]-(c:Claim)
  WITH v, c ORDER BY c.created_at, c.id
  DELETE v
  CREATE (c)-[:VERSION_OF]->(t)
  SET c.key = $into
  RETURN collect(c.id) AS moved
}
CALL (t) {
  MATCH (w:Claim {space: $space, id: $current})
  WHERE NOT EXISTS { (t)-[:CURRENT]->(w) }
  CREATE (t)-[:CURRENT]->(w)
}
CALL (t) {
  MATCH (w:Claim {space: $space, id: $current})
  SET w.active_key = CASE WHEN w.status = 'active' THEN t.key ELSE null END
}
CALL () {
  MATCH (d:Dispute {space: $space, key: $source})
  SET d.key = $into
}
CALL (s, t) {
  MATCH (a:Fact)-[r:MERGED_INTO]->(s)
  DELETE r
  CREATE (a)-[:MERGED_INTO {at: datetime($at), audit: $audit}]->(t)
  SET a.merged_into = $into
}
SET t.embedding = CASE WHEN t.description IS NULL THEN s.embedding ELSE t.embedding END,
    t.description = coalesce(t.description, s.description),
    t.registered = coalesce(t.registered, s.registered),
    t.value_type = coalesce(t.value_type, s.value_type)
SET s.merged_into = $into, s.merged_at = datetime($at), s.merge_audit = $audit
CREATE (s)-[:MERGED_INTO {at: datetime($at), audit: $audit}]->(t)
WITH s, t, moved
CALL () {
  MATCH (a:Audit {space: $space, id: $audit})
  SET a.source_key = $source, a.into_key = $into
}
RETURN moved
