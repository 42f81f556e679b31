// name: claim.unlink_version
// mode: write
// params: space, new_id, old_id
// description: remove the SUPERSEDES edge from a newer version to an older one (a contradicted version that stays in dispute leaves the version chain, as a parked challenger is never in one)
// :param space => 'default'
// :param new_id => 'c-2'
// :param old_id => 'c-1'
MATCH (new:Claim {space: $space, id: $new_id})-[r:SUPERSEDES]->(old:Claim {space: $space, id: $old_id})
DELETE r
RETURN count(r) AS removed
