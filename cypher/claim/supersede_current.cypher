// name: claim.supersede_current
// mode: write
// params: space, key, old_id, new_id, at, reason
// description: the new claim becomes the fact's one CURRENT belief; the old one is superseded with a revision
// :param space => 'default'
// :param key => 'user.risk_tolerance'
// :param old_id => 'c-1'
// :param new_id => 'c-2'
// :param at => '2026-12-02T11:00:00Z'
// :param reason => 'recency: newer claim on the same fact'
MATCH (f:Fact {space: $space, key: $key})-[cur:CURRENT]->(old:Claim {space: $space, id: $old_id})
MATCH (new:Claim {space: $space, id: $new_id})
DELETE cur
MERGE (f)-[:CURRENT]->(new)
CREATE (new)-[:SUPERSEDES]->(old)
// A current claim that already lost its support (withdrawn/retracted) keeps that status; an active
// or stale one is superseded (a stale version that a newer one replaces is history, not pending).
WITH f, old, new, CASE WHEN old.status IN ['active', 'stale'] THEN 'superseded' ELSE old.status END AS old_status
REMOVE old.active_key
// valid_to never precedes valid_from (a version written with a valid_from in the future).
SET old.status = old_status, old.valid_to = CASE WHEN old.valid_from > datetime($at) THEN old.valid_from ELSE datetime($at) END,
    new.status = 'active', new.active_key = f.key
CREATE (old)-[:HAS_REVISION]->(:Revision {space: $space, id: $old_id + ':s:' + $new_id, claim: $old_id, status: old_status, at: datetime($at), reason: $reason, by: $new_id})
RETURN old.id AS superseded, new.id AS current
