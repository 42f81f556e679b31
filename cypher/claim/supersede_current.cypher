// name: claim.supersede_current
// mode: write
// params: space, changes
// description: each new claim becomes its fact's one CURRENT belief; the old one is superseded with a revision; returns the old ones as they are now, and whether anything rests on them
// :param space => 'default'
// :param changes => [{key: 'user.risk_tolerance', old_id: 'c-1', new_id: 'c-2', at: '2026-12-02T11:00:00Z', reason: 'recency: newer claim on the same fact'}]
// One row per fact (a write supersedes one; a rule round one per re-derived key), under each fact's lock.
UNWIND $changes AS row
MATCH (f:Fact {space: $space, key: row.key})-[cur:CURRENT]->(old:Claim {space: $space, id: row.old_id})
// The seek is a hint: on a small store the planner scanned the whole Fact index instead (its cost
// then grew with every fact of the database, measured by bench writes' db hits).
USING INDEX SEEK f:Fact(space, key)
MATCH (new:Claim {space: $space, id: row.new_id})
DELETE cur
MERGE (f)-[:CURRENT]->(new)
// The chain is in creation order: an older claim that becomes current (a disputed challenger that
// wins against a newer version, e.g. after bg.keys.merge) displaces the current one without a
// SUPERSEDES edge, so the chain stays linear and ordered by time.
FOREACH (_ IN CASE WHEN new.created_at > old.created_at THEN [1] ELSE [] END | CREATE (new)-[:SUPERSEDES]->(old))
// A current claim that already lost its support (withdrawn/retracted) keeps that status; an active
// or stale one is superseded (a stale version that a newer one replaces is history, not pending).
WITH f, old, new, row, CASE WHEN old.status IN ['active', 'stale'] THEN 'superseded' ELSE old.status END AS old_status
REMOVE old.active_key, old:Active:Superseded:Disputed:Withdrawn:Retracted:Stale, new:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
// valid_to never precedes valid_from (a version written with a valid_from in the future, which writes
// have refused since; the data of before may hold one).
SET old.status = old_status,
    old.valid_to = CASE WHEN old.valid_from > datetime(row.at) THEN old.valid_from ELSE datetime(row.at) END,
    new.status = 'active', new.active_key = f.key, new:Active, old:$(toUpper(left(old_status, 1)) + substring(old_status, 1))
SET old.rev_seq = coalesce(old.rev_seq, 0) + 1,
    old.rev_at = CASE WHEN coalesce(old.rev_at, old.created_at) > datetime(row.at) THEN coalesce(old.rev_at, old.created_at) ELSE datetime(row.at) END
CREATE (old)-[:HAS_REVISION]->(:Revision {space: $space, seq: old.rev_seq, id: row.old_id + ':s:' + row.new_id, claim: row.old_id,
        status: old_status, at: old.rev_at, reason: row.reason, by: row.new_id})
RETURN old {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(old.created_at),
           valid_from: toString(old.valid_from), valid_to: toString(old.valid_to)} AS superseded, new.id AS current,
       EXISTS { (old)-[:PREMISE_OF]->() } AS dependents
