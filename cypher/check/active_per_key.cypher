// name: check.active_per_key
// mode: read
// params: space, limit
// description: invariant: at most one active claim per fact key; returns how many keys break it and up to $limit of them with their active claim ids
// Cost: one index seek on Claim(space, status) for the space's active claims.
// :param space => 'default'
// :param limit => 100
MATCH (c:Claim)
WHERE c.space = $space AND c.status = 'active' AND c.key IS NOT NULL
WITH c.key AS key, collect(c.id) AS ids
WHERE size(ids) > 1
WITH collect(key + ': ' + reduce(s = '', i IN ids | s + CASE WHEN s = '' THEN '' ELSE ', ' END + i)) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
