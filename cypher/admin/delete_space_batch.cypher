// name: admin.delete_space_batch
// mode: write
// params: space, limit
// description: delete up to $limit nodes of one memory space through its space indexes, every label but Agent (the writers go last: admin.delete_space_agents), with the revisions and proposals that hang off them; the caller repeats until 0, then deletes the agents, then sweeps what no space index reaches (admin.delete_space_rest)
// :param space => 'bench-writes'
// :param limit => 2000
// Each label is read through an index that leads with `space` (its second property is part of a
// uniqueness constraint or always written, hence `IS NOT NULL`), at most $limit entries per label,
// so a batch costs the same in a store of 10^3 nodes and of 10^9: the earlier `MATCH (n) WHERE
// n.space = $space` read every node of the store in every batch. Revisions (reached from their
// claim or episode) and proposals (from their deliberation) have no space index and go with the
// node they hang off. A writer may have asserted every claim of the space: its Agent node holds one
// ASSERTED edge per claim, and deleting it first would delete 10^6 relationships in one
// transaction (that ran a 2 GB heap out of transaction memory), so agents are not deleted here.
CALL () {
  MATCH (n:Claim)
  USING INDEX SEEK n:Claim(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Episode)
  USING INDEX SEEK n:Episode(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Fact)
  USING INDEX SEEK n:Fact(space, key)
  WHERE n.space = $space AND n.key IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:FactLock)
  USING INDEX SEEK n:FactLock(space, key)
  WHERE n.space = $space AND n.key IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Justification)
  USING INDEX SEEK n:Justification(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Audit)
  USING INDEX SEEK n:Audit(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Argument)
  USING INDEX SEEK n:Argument(space, ns)
  WHERE n.space = $space AND n.ns IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Framework)
  USING INDEX SEEK n:Framework(space, name)
  WHERE n.space = $space AND n.name IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Deliberation)
  USING INDEX SEEK n:Deliberation(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Dispute)
  USING INDEX SEEK n:Dispute(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Perspective)
  USING INDEX SEEK n:Perspective(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Concept)
  USING INDEX SEEK n:Concept(space, perspective, name)
  WHERE n.space = $space AND n.perspective IS NOT NULL AND n.name IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Import)
  USING INDEX SEEK n:Import(space, name)
  WHERE n.space = $space AND n.name IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:PolicyRule)
  USING INDEX SEEK n:PolicyRule(space, pattern)
  WHERE n.space = $space AND n.pattern IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:AuthorityRule)
  USING INDEX SEEK n:AuthorityRule(space, agent, pattern)
  WHERE n.space = $space AND n.agent IS NOT NULL AND n.pattern IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:Rule)
  USING INDEX SEEK n:Rule(space, status)
  WHERE n.space = $space AND n.status IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
  UNION
  MATCH (n:RuleInstance)
  USING INDEX SEEK n:RuleInstance(space, rule)
  WHERE n.space = $space AND n.rule IS NOT NULL
  WITH n LIMIT $limit
  RETURN n
}
WITH n LIMIT $limit
CALL (n) {
  OPTIONAL MATCH (n)-[:HAS_REVISION]->(r:Revision)
  OPTIONAL MATCH (n)<-[:ANSWERS]-(p:Proposal)
  WITH collect(DISTINCT r) + collect(DISTINCT p) AS hanging
  FOREACH (x IN hanging | DETACH DELETE x)
  RETURN size(hanging) AS hanging
}
DETACH DELETE n
RETURN count(*) + sum(hanging) AS deleted
