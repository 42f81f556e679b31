// name: explore.show_attack_graph
// mode: read
// params: space, id
// description: a deliberation's attack graph: each perspective's proposal with its grounded label (IN/OUT/UNDEC), the attacks between them and the claims they cite
// :param space => 'default'
// :param id => 'd-1'
MATCH (d:Deliberation {space: $space, id: $id})<-[answers:ANSWERS]-(x:Proposal)
OPTIONAL MATCH (p:Perspective {space: $space})-[proposed:PROPOSED]->(x)
OPTIONAL MATCH (x)-[attack:ATTACKS]->(y:Proposal)-[:ANSWERS]->(d)
OPTIONAL MATCH (x)-[cites:CITES]->(c:Claim)
RETURN d, answers, x, p, proposed, attack, y, cites, c
