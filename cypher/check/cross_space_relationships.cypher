// name: check.cross_space_relationships
// mode: read
// params: space, limit
// description: invariant: no relationship joins a node of this space to a node of another space (every labelled node with a space index is visited; nodes without space, such as schema records, do not count)
// Cost: one index seek per label on its (space, ...) index (hinted: for a label with few nodes the
// planner otherwise scans every relationship of the store), then every relationship of the space's
// nodes (linear in the space's nodes + relationships; a relationship between two nodes of the space
// is looked at from both ends). Revisions and proposals are reached from their claims,
// deliberations and perspectives.
// :param space => 'default'
// :param limit => 100
CALL () {
  MATCH (n:Agent)-[r]-(m)
  USING INDEX n:Agent(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Agent ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Argument)-[r]-(m)
  USING INDEX n:Argument(space, ns)
  WHERE n.space = $space AND n.ns IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Argument ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Audit)-[r]-(m)
  USING INDEX n:Audit(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Audit ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:AuthorityRule)-[r]-(m)
  USING INDEX n:AuthorityRule(space, agent, pattern)
  WHERE n.space = $space AND n.agent IS NOT NULL AND n.pattern IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'AuthorityRule ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Claim)-[r]-(m)
  USING INDEX n:Claim(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Claim ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Concept)-[r]-(m)
  USING INDEX n:Concept(space, perspective, name)
  WHERE n.space = $space AND n.perspective IS NOT NULL AND n.name IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Concept ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Deliberation)-[r]-(m)
  USING INDEX n:Deliberation(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Deliberation ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Dispute)-[r]-(m)
  USING INDEX n:Dispute(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Dispute ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Episode)-[r]-(m)
  USING INDEX n:Episode(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Episode ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Fact)-[r]-(m)
  USING INDEX n:Fact(space, key)
  WHERE n.space = $space AND n.key IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Fact ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:FactLock)-[r]-(m)
  USING INDEX n:FactLock(space, key)
  WHERE n.space = $space AND n.key IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'FactLock ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Framework)-[r]-(m)
  USING INDEX n:Framework(space, name)
  WHERE n.space = $space AND n.name IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Framework ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Justification)-[r]-(m)
  USING INDEX n:Justification(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Justification ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Perspective)-[r]-(m)
  USING INDEX n:Perspective(space, id)
  WHERE n.space = $space AND n.id IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Perspective ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:PolicyRule)-[r]-(m)
  USING INDEX n:PolicyRule(space, pattern)
  WHERE n.space = $space AND n.pattern IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'PolicyRule ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:Rule)-[r]-(m)
  USING INDEX n:Rule(space, name, version)
  WHERE n.space = $space AND n.name IS NOT NULL AND n.version IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'Rule ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
  UNION ALL
  MATCH (n:RuleInstance)-[r]-(m)
  USING INDEX n:RuleInstance(space, key)
  WHERE n.space = $space AND n.key IS NOT NULL AND m.space IS NOT NULL AND m.space <> $space
  RETURN 'RuleInstance ' + coalesce(n.id, n.key, n.name, n.pattern, elementId(n)) + ' -[' + type(r) + ']- ' + head(labels(m)) + ' '
         + coalesce(m.id, m.key, m.name, elementId(m)) + ' of space ' + m.space AS item
}
WITH collect(item) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
