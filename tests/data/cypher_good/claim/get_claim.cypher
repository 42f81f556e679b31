// name: claim.get_claim
// mode: read
// params: space, id
// description: one claim by id; keywords in strings/comments/property keys must not count as writes
// :param space => 'default'
// :param id => 'c1'
// A comment that says CREATE, DELETE and `;` is ignored.
MATCH (c:Claim {space: $space, id: $id})
WHERE c.text <> 'CREATE (x); DETACH DELETE x' /* SET c.x = 1; */
  AND NOT c:Deleted
RETURN c {.id, .text, offset: c.offset, set: c.set, `merge`: 1, note: "$notAParam"} AS claim;
