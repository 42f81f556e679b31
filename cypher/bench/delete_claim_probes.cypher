// name: bench.delete_claim_probes
// mode: write
// params: space
// description: delete the claim-shaped probes of bench writes (status 'probe', written by bench.write_claim_probe), so a kept bench space holds only claims as the engine writes them and `db check` holds on it
// :param space => 'bench-writes'
MATCH (c:Claim {space: $space, status: 'probe'})
USING INDEX c:Claim(space, status)
DETACH DELETE c
RETURN count(*) AS deleted
