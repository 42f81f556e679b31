// name: bench.load_facts
// mode: write
// params: space, agent, at, rows
// description: bulk-load facts for a benchmark: each row a Fact with one active current Claim (first revision, VERSION_OF, CURRENT), batched UNWIND
// :param space => 'bench-edits'
// :param agent => 'bench:loader'
// :param at => '2026-12-04T10:00:00Z'
// :param rows => [{id: 'f-1', key: 'filler.f1', value: 'v1'}]
// The claims are what assert_claim would write for a first version (same labels, properties,
// indexes and edges, active_key included) except the embedding and the writer's ASSERTED edge:
// they exist to make the store big and to be premises, and are never recalled. No FactLock: the
// write path creates it on the first lock of the key.
UNWIND $rows AS row
CREATE (f:Fact {space: $space, key: row.key})
SET f.created_at = datetime($at)
CREATE (c:Claim:Active {space: $space, id: row.id})
SET c.key = row.key, c.value = row.value, c.text = row.key + ' is ' + row.value, c.kind = 'semantic',
    c.agent = $agent, c.status = 'active', c.active_key = row.key, c.created_at = datetime($at),
    c.valid_from = datetime($at)
CREATE (c)-[:VERSION_OF]->(f)
CREATE (f)-[:CURRENT]->(c)
CREATE (c)-[:HAS_REVISION]->(:Revision {space: $space, id: row.id + ':r0', claim: row.id, status: 'active',
        at: datetime($at), reason: 'bench load'})
RETURN count(*) AS loaded
