// name: fact.key_schema
// mode: read
// params: space
// description: the active version of the space's key schema, if any
// :param space => 'default'
MATCH (s:KeySchema {space: $space, status: 'active'})
RETURN s {.version, .status, .spec, .unknown, .agent, .ended_by, created_at: toString(s.created_at),
          ended_at: toString(s.ended_at)} AS schema
