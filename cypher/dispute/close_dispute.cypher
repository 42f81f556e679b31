// name: dispute.close_dispute
// mode: write
// params: space, id, winner, by, reason, rule, at
// description: record a dispute's resolution (who won, who decided, why, by which rule)
// :param space => 'default'
// :param id => 'd1'
// :param winner => 'c1'
// :param by => 'user:admin'
// :param reason => 'confirmed with the user'
// :param rule => 'manual'
// :param at => '2026-01-01T00:00:00Z'
MATCH (d:Dispute {space: $space, id: $id})
WHERE d.status = 'open'
SET d.status = 'resolved', d.winner = $winner, d.resolved_by = $by, d.resolution = $reason,
    d.rule = $rule, d.resolved_at = datetime($at)
RETURN d.id AS id
