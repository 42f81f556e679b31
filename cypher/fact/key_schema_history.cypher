// name: fact.key_schema_history
// mode: read
// params: space
// description: every version of the space's key schema, oldest first (active, replaced or dropped)
// :param space => 'default'
MATCH (s:KeySchema {space: $space})
USING INDEX s:KeySchema(space, version)
WHERE s.version IS NOT NULL
WITH s ORDER BY s.version
RETURN s {.version, .status, .spec, .unknown, .agent, .ended_by, created_at: toString(s.created_at),
          ended_at: toString(s.ended_at)} AS schema
