// name: dispute.create_dispute
// mode: write
// params: space, id, key, incumbent, challenger, strategy, reason, at
// description: park a challenger that policy could not settle: an open Dispute between it and the incumbent
// :param space => 'default'
// :param id => 'd1'
// :param key => 'user.timezone'
// :param incumbent => 'c1'
// :param challenger => 'c2'
// :param strategy => 'authority'
// :param reason => 'agent-b (0.2) does not out-weigh agent-a (0.9)'
// :param at => '2026-01-01T00:00:00Z'
MATCH (i:Claim {space: $space, id: $incumbent})
MATCH (c:Claim {space: $space, id: $challenger})
CREATE (d:Dispute {space: $space, id: $id, key: $key, status: 'open', strategy: $strategy, reason: $reason, at: datetime($at)})
CREATE (d)-[:INCUMBENT]->(i)
CREATE (d)-[:CHALLENGER]->(c)
RETURN d.id AS id
