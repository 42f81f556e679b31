// name: perspective.create_interpretations
// mode: write
// params: space, items, created_at
// description: write interpretations: each a Claim:Interpretation (kind interpretation, no key) in its perspective's vocabulary, justified by its episode (Justification with the Episode as premise, so retracting the episode withdraws it), linked INSTANCE_OF to its concepts
// :param space => 'default'
// :param items => [{id: 'i-1', episode: 'ep-1', perspective: 'risk', agent: 'perspective:risk', text: 'An unreviewed concession sets a precedent', confidence: 0.8, embedding: null, concepts: ['Precedent'], justification_id: 'j-1', llm_job: 'encode', llm_prompt: 'encode@1', llm_model: 'scripted'}]
// :param created_at => '2026-12-03T10:00:00Z'
// Creating the PREMISE_OF edge write-locks the episode, so a concurrent retraction serializes with
// this write; the episode's status is returned and checked by the service inside the transaction.
UNWIND $items AS it
MATCH (e:Episode {space: $space, id: it.episode})
MERGE (a:Agent {space: $space, id: it.agent})
ON CREATE SET a.kind = 'agent'
CREATE (c:Claim:Interpretation:Active {space: $space, id: it.id})
SET c.kind = 'interpretation', c.perspective = it.perspective, c.episode = it.episode, c.text = it.text,
    c.agent = it.agent, c.status = 'active', c.confidence = it.confidence, c.embedding = it.embedding,
    c.created_at = datetime($created_at), c.valid_from = datetime($created_at),
    c.llm_job = it.llm_job, c.llm_prompt = it.llm_prompt, c.llm_model = it.llm_model
CREATE (a)-[:ASSERTED]->(c)
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, id: it.id + ':r0', claim: it.id, status: 'active',
        at: datetime($created_at), reason: 'interpreted by perspective ' + it.perspective})
CREATE (j:Justification {space: $space, id: it.justification_id, rule: 'perspective:' + it.perspective,
        agent: it.agent, created_at: datetime($created_at)})
CREATE (e)-[:PREMISE_OF]->(j)
CREATE (j)-[:JUSTIFIES]->(c)
WITH c, e, it
CALL (c, it) {
  MATCH (k:Concept {space: $space, perspective: it.perspective})
  WHERE k.name IN it.concepts
  CREATE (c)-[:INSTANCE_OF]->(k)
  RETURN count(k) AS linked
}
RETURN c.id AS id, coalesce(e.status, 'active') AS episode_status, linked
