// name: claim.lock_premises
// mode: write
// params: space, ids
// description: take the write lock on the episodes and claims a write cites (evidence, premises), in the given order, so their status is read after any retract, restore or supersession of them has committed; writes nothing; returns how many it locked
// :param space => 'default'
// :param ids => ['ep-1', 'c-1']
// Why: a write checks that what it cites is current. Read committed, a check made before the write
// holds these locks misses a retract that commits while the write waits (for its fact's lock, say),
// and the claim would commit current on non-current support. Retract, restore and supersession write
// the status of the node they invalidate (an exclusive lock), so taking the same lock here orders
// the two: the caller reads the statuses (claim.find_premises, support.prepare_derive) only after
// this statement returns. Lock order (docs/architecture.md, "Concurrency"): fact locks first (sorted
// keys), then these nodes, sorted by id by the caller. SET then REMOVE of a property the nodes never
// keep is Neo4j's documented way to take a node's write lock in Cypher; the lock lasts until the
// transaction ends, the node is left as it was.
UNWIND $ids AS pid
CALL (pid) {
  MATCH (p:Episode {space: $space, id: pid}) RETURN p
  UNION
  MATCH (p:Claim {space: $space, id: pid}) RETURN p
}
SET p._lock = true
REMOVE p._lock
RETURN count(p) AS locked
