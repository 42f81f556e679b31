// name: deliberation.set_outcome
// mode: write
// params: space, id, mode, answer, parts
// description: record the retrieval mode the grounded labelling implies (select / compose / conflict / none) and the answer (parts: JSON strings of the composed parts, each with its citations)
// :param space => 'default'
// :param id => 'd-1'
// :param mode => 'select'
// :param answer => 'No: it would set a precedent'
// :param parts => []
MATCH (d:Deliberation {space: $space, id: $id})
SET d.mode = $mode, d.answer = $answer, d.parts = $parts
RETURN d.id AS id, d.mode AS mode
