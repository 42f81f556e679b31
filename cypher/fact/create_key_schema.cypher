// name: fact.create_key_schema
// mode: write
// params: space, spec, unknown, size, agent, at
// description: store a new version of the space's key schema (version 1, or the last version + 1, which replaces the active one)
// :param space => 'default'
// :param spec => '[{"key": "user.city", "description": "the city the user lives in", "type": "string", "examples": ["Lisbon"]}]'
// :param unknown => 'other'
// :param size => 1
// :param agent => 'user:admin'
// :param at => '2026-12-04T10:00:00Z'
// Versioned like Rule: every version stays (status replaced or dropped, with who and when), the
// active one is the schema.
OPTIONAL MATCH (old:KeySchema {space: $space})
USING INDEX old:KeySchema(space, version)
WHERE old.version IS NOT NULL
WITH max(old.version) AS last
CALL () {
  OPTIONAL MATCH (prev:KeySchema {space: $space, status: 'active'})
  SET prev.status = 'replaced', prev.ended_at = datetime($at), prev.ended_by = $agent
  RETURN prev
}
CREATE (s:KeySchema {space: $space, version: coalesce(last, 0) + 1})
SET s.status = 'active', s.spec = $spec, s.unknown = $unknown, s.size = $size, s.agent = $agent,
    s.created_at = datetime($at)
WITH s, prev
CALL (s, prev) {
  WITH s, prev WHERE prev IS NOT NULL
  CREATE (s)-[:REPLACES]->(prev)
}
RETURN s {.version, .status, .spec, .unknown, .agent, created_at: toString(s.created_at)} AS schema
