// name: bench.write_probe
// mode: write
// params: space, id
// description: the commit floor: a write transaction that creates one node, timed next to the writes a bench measures
// :param space => 'bench-writes'
// :param id => 'probe-1'
// Nothing reads these nodes; they carry `space`, so the bench's space drop removes them.
CREATE (p:BenchProbe {space: $space, id: $id})
RETURN p.id AS id
