// name: support.count_claims
// mode: read
// params: space
// description: how many claims one space holds (from the claim_space_status index)
// :param space => 'default'
MATCH (c:Claim {space: $space})
WHERE c.status IS NOT NULL
RETURN count(c) AS claims
