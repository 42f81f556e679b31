// name: perspective.record_judgements
// mode: write
// params: space, pairs, at
// description: record that the LLM found an episode not relevant for a perspective (one JUDGED_IRRELEVANT edge per pair, with the prompt and model that decided)
// :param space => 'default'
// :param pairs => [{episode: 'ep-1', perspective: 'risk', llm_prompt: 'encode@1', llm_model: 'scripted'}]
// :param at => '2026-12-03T10:00:00Z'
UNWIND $pairs AS pair
MATCH (p:Perspective {space: $space, name: pair.perspective})
MATCH (e:Episode {space: $space, id: pair.episode})
MERGE (p)-[r:JUDGED_IRRELEVANT]->(e)
ON CREATE SET r.at = datetime($at), r.llm_prompt = pair.llm_prompt, r.llm_model = pair.llm_model
RETURN count(r) AS recorded
