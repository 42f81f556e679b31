// name: claim.supersede_claim
// mode: write
// params: space, old_id, new_id, at, reason
// description: a claim without a fact key replaced by a newer one (a stale conclusion re-derived): SUPERSEDES edge, the old one superseded with a revision
// :param space => 'default'
// :param old_id => 'c-1'
// :param new_id => 'c-2'
// :param at => '2026-12-04T10:00:00Z'
// :param reason => 're-derived by llm:rederive'
// Facts have claim.supersede_current (under the fact's lock); a keyless claim has no fact, so this
// links the two versions the same way without one. A withdrawn or retracted old claim keeps its status.
MATCH (old:Claim {space: $space, id: $old_id})
MATCH (new:Claim {space: $space, id: $new_id})
WHERE old.key IS NULL AND old <> new
CREATE (new)-[:SUPERSEDES]->(old)
WITH old, new, CASE WHEN old.status IN ['active', 'stale'] THEN 'superseded' ELSE old.status END AS old_status
REMOVE old:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
SET old.status = old_status, old.valid_to = datetime($at), old:$(toUpper(left(old_status, 1)) + substring(old_status, 1))
SET old.rev_seq = coalesce(old.rev_seq, 0) + 1,
    old.rev_at = CASE WHEN coalesce(old.rev_at, old.created_at) > datetime($at) THEN coalesce(old.rev_at, old.created_at) ELSE datetime($at) END
CREATE (old)-[:HAS_REVISION]->(:Revision {space: $space, seq: old.rev_seq, id: $old_id + ':s:' + $new_id, claim: $old_id, status: old_status,
        at: old.rev_at, reason: $reason, by: $new_id})
RETURN old.id AS superseded, new.id AS current
