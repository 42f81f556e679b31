// name: claim.get_claim
// mode: read
// params: space, id
// description: claims to be a read, but deletes after a string that looks harmless
// :param space => 'default'
// :param id => 'c1'
MATCH (c:Claim {space: $space, id: $id})
WHERE c.text <> 'it\'s fine // really'
DETACH DELETE c
