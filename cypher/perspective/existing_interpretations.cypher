// name: perspective.existing_interpretations
// mode: read
// params: space, ids
// description: which of the given (deterministic) interpretation ids already exist, with their status: re-encoding an episode for a perspective never duplicates
// :param space => 'default'
// :param ids => ['8a6e0f3c-0000-5000-8000-000000000000']
MATCH (c:Claim {space: $space})
WHERE c.id IN $ids
RETURN c.id AS id, c.status AS status, c.perspective AS perspective, c.episode AS episode
