// name: claim.create_claim
// mode: write
// params: space, id, text
// description: create one claim
// :param space => 'default'
// :param id => 'c1'
// :param text => 'hello'
CREATE (c:Claim {space: $space, id: $id, text: $text})
RETURN c.id AS id
