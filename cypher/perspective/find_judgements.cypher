// name: perspective.find_judgements
// mode: read
// params: space, episodes, names
// description: the (episode, perspective) pairs an earlier encode already sent to the LLM and found not relevant (JUDGED_IRRELEVANT), so re-encoding asks again for nothing
// :param space => 'default'
// :param episodes => ['ep-1']
// :param names => ['risk']
UNWIND $episodes AS eid
MATCH (e:Episode {space: $space, id: eid})
MATCH (p:Perspective)-[:JUDGED_IRRELEVANT]->(e)
WHERE p.space = $space AND p.name IN $names
RETURN e.id AS episode, p.name AS perspective
