// name: claim.belief_valid_at
// mode: read
// params: space, key, at
// description: what was true of a fact at time at, by what memory knows now (valid time): among the versions that held, the one recorded last whose validity covers at
// :param space => 'default'
// :param key => 'user.city'
// :param at => '2026-01-01T00:00:00Z'
// A version held if it was ever active and is not retracted, withdrawn or disputed now (superseded
// and stale versions count: they held in their time; a challenger that lost its dispute never
// held). It covers `at` from its valid_from (created_at for claims written without one) to its
// valid_to (set when it was superseded) or, for a conclusion that went stale after it was last
// active, the time it went stale. Of those, the one recorded last wins: a late report ("I moved two
// weeks ago") or a correction with an earlier valid_from covers the period it claims.
MATCH (f:Fact {space: $space, key: $key})<-[:VERSION_OF]-(c:Claim)
USING INDEX SEEK f:Fact(space, key)
WHERE NOT c.status IN ['retracted', 'withdrawn', 'disputed']
  AND coalesce(c.valid_from, c.created_at) <= datetime($at)
  AND (c.valid_to IS NULL OR c.valid_to > datetime($at))
CALL (c) {
  MATCH (c)-[:HAS_REVISION]->(r:Revision)
  WITH r ORDER BY r.at, coalesce(r.seq, 0), r.id
  WITH collect(r {.status, .at}) AS revs
  WITH revs, [i IN range(0, size(revs) - 1) WHERE revs[i].status = 'active'] AS active
  RETURN size(active) > 0 AS held,
         head([i IN range(coalesce(last(active), 0), size(revs) - 1) WHERE revs[i].status = 'stale' | revs[i].at]) AS stale_at
}
WITH c, held, stale_at WHERE held AND (stale_at IS NULL OR stale_at > datetime($at))
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim
ORDER BY c.created_at DESC, c.id DESC
LIMIT 1
