// name: bench.write_claim_probe
// mode: write
// params: space, id, text, embedding
// description: a write transaction that creates one Claim node with a text and (when given) an embedding: the commit floor of a claim-shaped node, with the range, fulltext and (with an embedding) vector index updates a claim's commit pays
// :param space => 'bench-writes'
// :param id => 'probe-claim-1'
// :param text => 'The timezone of user 1 is berlin'
// :param embedding => null
// No key, no edges, status 'probe': nothing the engine reads; the bench's space drop removes it, or
// bench.delete_claim_probes when the space is kept.
CREATE (c:Claim {space: $space, id: $id})
SET c.text = $text, c.status = 'probe', c.kind = 'semantic', c.agent = 'bench:probe', c.embedding = $embedding
RETURN c.id AS id
