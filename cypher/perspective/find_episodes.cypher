// name: perspective.find_episodes
// mode: read
// params: space, ids
// description: the episodes to encode: the named ones (ids) or, when ids is null, every episode of the space, oldest first; with status (retracted episodes are not encoded)
// :param space => 'default'
// :param ids => null
MATCH (e:Episode)
USING INDEX e:Episode(space, id)
WHERE e.space = $space AND e.id IS NOT NULL AND ($ids IS NULL OR e.id IN $ids)
RETURN e.id AS id, e.text AS text, coalesce(e.status, 'active') AS status, toString(e.at) AS at
ORDER BY e.at, e.id
