// name: argumentation.release_nodes
// mode: write
// params: space, ns
// description: take Claim/Proposal nodes out of a namespace (drop the Argument label and solver properties; their attacks, stored label and its mark :In/:Out/:Undec stay)
// :param space => 'default'
// :param ns => 'deliberation:d1'
MATCH (a:Argument {space: $space, ns: $ns})
USING INDEX a:Argument(space, ns)
WHERE a:Claim OR a:Proposal
REMOVE a:Argument, a.ns, a.name, a.wave, a.undefeated, a.frontier, a.link, a.state
RETURN count(a) AS released
