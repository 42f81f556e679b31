// name: support.active_claims
// mode: read
// params: space, limit
// description: the active claims of a space, newest first (working-context candidates when no query or keys are given)
// :param space => 'default'
// :param limit => 200
MATCH (c:Claim {space: $space, status: 'active'})
WITH c ORDER BY c.created_at DESC, c.id DESC LIMIT $limit
RETURN c.id AS id
