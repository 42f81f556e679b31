// name: check.status_labels
// mode: read
// params: space, limit
// description: invariant: every claim carries exactly the status label of its status (:Active, :Superseded, :Disputed, :Withdrawn, :Retracted, :Stale), and an episode carries :Retracted exactly when it is retracted
// Browser and Bloom style by these labels; a label that disagrees with the status shows a withdrawn
// claim as active. Cost: one index seek on Claim(space, id) and one on Episode(space, id).
// :param space => 'default'
// :param limit => 100
CALL () {
  MATCH (c:Claim)
  WHERE c.space = $space AND c.id IS NOT NULL
  WITH c, [l IN labels(c) WHERE l IN ['Active', 'Superseded', 'Disputed', 'Withdrawn', 'Retracted', 'Stale']] AS marks,
       toUpper(left(c.status, 1)) + substring(c.status, 1) AS want
  WHERE marks <> [want]
  RETURN 'Claim ' + c.id + ': status ' + c.status + ', labels ' + reduce(s = '', l IN marks | s + ':' + l) AS item
  UNION ALL
  MATCH (e:Episode)
  WHERE e.space = $space AND e.id IS NOT NULL AND (e:Retracted) <> (coalesce(e.status, 'active') = 'retracted')
  RETURN 'Episode ' + e.id + ': status ' + coalesce(e.status, 'active') + CASE WHEN e:Retracted THEN ' with' ELSE ' without' END
         + ' :Retracted' AS item
}
WITH collect(item) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
