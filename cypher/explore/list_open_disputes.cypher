// name: explore.list_open_disputes
// mode: read
// params: space
// description: open disputes: each parked challenger and the incumbent it could not displace
// :param space => 'default'
MATCH (d:Dispute {space: $space, status: 'open'})-[role:INCUMBENT|CHALLENGER]->(c:Claim)
RETURN d, role, c
ORDER BY d.at, d.id
