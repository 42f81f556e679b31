// name: claim.change_status
// mode: write
// params: space, id, status, at, reason, by, revision_id
// description: set a claim's status with an immutable Revision; only an active current claim keeps active_key
// :param space => 'default'
// :param id => 'c1'
// :param status => 'superseded'
// :param at => '2026-01-01T00:00:00Z'
// :param reason => 'dispute resolved'
// :param by => 'user:admin'
// :param revision_id => 'c1:r1'
MATCH (c:Claim {space: $space, id: $id})
OPTIONAL MATCH (f:Fact)-[:CURRENT]->(c)
REMOVE c:Active:Superseded:Disputed:Withdrawn:Retracted:Stale
SET c.status = $status, c:$(toUpper(left($status, 1)) + substring($status, 1))
SET c.active_key = CASE WHEN $status = 'active' AND f IS NOT NULL THEN f.key ELSE null END
SET c.rev_seq = coalesce(c.rev_seq, 0) + 1,
    c.rev_at = CASE WHEN coalesce(c.rev_at, c.created_at) > datetime($at) THEN coalesce(c.rev_at, c.created_at) ELSE datetime($at) END
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, seq: c.rev_seq, id: $revision_id, claim: $id, status: $status, at: c.rev_at, reason: $reason, by: $by})
RETURN c {.id, .key, .value, .text, .kind, .agent, .status, .confidence, created_at: toString(c.created_at), valid_from: toString(c.valid_from), valid_to: toString(c.valid_to)} AS claim
