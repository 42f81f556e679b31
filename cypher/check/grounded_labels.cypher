// name: check.grounded_labels
// mode: read
// params: space, limit
// description: invariant: every node with a grounded label (arguments, deliberation proposals, claims enlisted in a namespace) carries exactly its mark: :In for 'IN', :Out for 'OUT', :Undec for 'UNDEC', none when it was never solved
// Browser and Bloom style by these marks; a mark that disagrees with `label` shows a defeated
// argument as accepted. The mark follows `label` wherever it is, also on a Claim or Proposal taken
// out of its namespace (release_nodes keeps both). A value other than IN/OUT/UNDEC is reported too.
// Cost: one index seek on Argument(space, ns), one on Deliberation(space, id) expanding to its
// proposals that are not arguments, one on Claim(space, id) for the claims that are not arguments
// (linear in the space, like status_labels).
// :param space => 'default'
// :param limit => 100
CALL () {
  MATCH (a:Argument)
  WHERE a.space = $space AND a.ns IS NOT NULL
  WITH a, [l IN labels(a) WHERE l IN ['In', 'Out', 'Undec']] AS marks
  WHERE marks <> CASE a.label WHEN 'IN' THEN ['In'] WHEN 'OUT' THEN ['Out'] WHEN 'UNDEC' THEN ['Undec'] ELSE
                   CASE WHEN a.label IS NULL THEN [] ELSE ['?'] END END
  RETURN 'Argument ' + a.ns + '/' + a.name + ': label ' + coalesce(a.label, 'none') + ', marks '
         + reduce(s = '', l IN marks | s + ':' + l) AS item
  UNION ALL
  MATCH (d:Deliberation)
  WHERE d.space = $space AND d.id IS NOT NULL
  MATCH (p:Proposal)-[:ANSWERS]->(d)
  WHERE NOT p:Argument
  WITH p, [l IN labels(p) WHERE l IN ['In', 'Out', 'Undec']] AS marks
  WHERE marks <> CASE p.label WHEN 'IN' THEN ['In'] WHEN 'OUT' THEN ['Out'] WHEN 'UNDEC' THEN ['Undec'] ELSE
                   CASE WHEN p.label IS NULL THEN [] ELSE ['?'] END END
  RETURN 'Proposal ' + p.id + ': label ' + coalesce(p.label, 'none') + ', marks '
         + reduce(s = '', l IN marks | s + ':' + l) AS item
  UNION ALL
  MATCH (c:Claim)
  WHERE c.space = $space AND c.id IS NOT NULL AND NOT c:Argument
  WITH c, [l IN labels(c) WHERE l IN ['In', 'Out', 'Undec']] AS marks
  WHERE marks <> CASE c.label WHEN 'IN' THEN ['In'] WHEN 'OUT' THEN ['Out'] WHEN 'UNDEC' THEN ['Undec'] ELSE
                   CASE WHEN c.label IS NULL THEN [] ELSE ['?'] END END
  RETURN 'Claim ' + c.id + ': label ' + coalesce(c.label, 'none') + ', marks '
         + reduce(s = '', l IN marks | s + ':' + l) AS item
}
WITH collect(item) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
