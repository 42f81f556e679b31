// name: fact.relink_versions
// mode: write
// params: space, key, chain, at
// description: make a fact's SUPERSEDES chain exactly the given versions in the given order (oldest first): edges between other pairs of its versions are removed, missing ones created (a merge interleaves two chains by time)
// :param space => 'default'
// :param key => 'user.city'
// :param chain => ['c-1', 'c-2', 'c-3']
// :param at => '2026-12-04T10:00:00Z'
// A version that gains a successor and has no valid_to (the older of two current claims) ends at
// the merge. Versions left out of the chain (a disputed challenger, versions newer than the one
// current belief) keep their statuses and revisions and lose their SUPERSEDES edges.
MATCH (f:Fact {space: $space, key: $key})
WITH f, [i IN range(0, size($chain) - 2) | {old: $chain[i], new: $chain[i + 1]}] AS pairs
CALL (f, pairs) {
  MATCH (f)<-[:VERSION_OF]-(n:Claim)-[r:SUPERSEDES]->(o:Claim)
  WHERE NOT {old: o.id, new: n.id} IN pairs
  DELETE r
  RETURN count(r) AS removed
}
CALL (f, pairs) {
  UNWIND pairs AS p
  MATCH (n:Claim {space: $space, id: p.new})
  MATCH (o:Claim {space: $space, id: p.old})
  WHERE NOT EXISTS { (n)-[:SUPERSEDES]->(o) }
  CREATE (n)-[:SUPERSEDES]->(o)
  SET o.valid_to = coalesce(o.valid_to, CASE WHEN o.valid_from > datetime($at) THEN o.valid_from ELSE datetime($at) END)
  RETURN count(n) AS added
}
RETURN removed, added
