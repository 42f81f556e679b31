// name: check.revision_chains
// mode: read
// params: space, limit
// description: invariant: every claim has its revision history: a first revision (at its creation time or before any other), every revision names the claim, and the latest revision (by time, then seq, the order they were written in, then id: the order as_of uses; a first revision has no seq and sorts first) has the claim's status; no two revisions with different statuses share time and seq (their order would be the ids'), and no revision is dated before one written earlier (seq)
// A revision without seq is a first revision or one written before seq existed: it counts as 0
// (written before every revision with seq).
// Cost: one index seek on Claim(space, id), then each claim's revisions (linear in the space's
// claims + revisions).
// :param space => 'default'
// :param limit => 100
MATCH (c:Claim)
WHERE c.space = $space AND c.id IS NOT NULL
CALL (c) {
  OPTIONAL MATCH (c)-[:HAS_REVISION]->(r:Revision)
  WITH r ORDER BY r.at DESC, coalesce(r.seq, 0) DESC, r.id DESC
  WITH collect(r) AS revs
  RETURN [x IN [
      CASE WHEN size(revs) = 0 THEN 'no revision' END,
      CASE WHEN size(revs) > 0 AND last(revs).at > c.created_at
           THEN 'first revision at ' + toString(last(revs).at) + ', after the claim was created (' + toString(c.created_at) + ')' END,
      CASE WHEN size(revs) > 0 AND head(revs).status <> c.status
           THEN 'status ' + c.status + ' but the latest revision says ' + head(revs).status END,
      head([i IN range(1, size(revs) - 1)
            WHERE revs[i].at = revs[i - 1].at AND coalesce(revs[i].seq, 0) = coalesce(revs[i - 1].seq, 0)
              AND revs[i].status <> revs[i - 1].status
            | 'revisions ' + revs[i].status + ' and ' + revs[i - 1].status + ' at ' + toString(revs[i].at) + ' in no order (same seq)']),
      head([i IN range(1, size(revs) - 1)
            WHERE coalesce(revs[i].seq, 0) > coalesce(revs[i - 1].seq, 0)
            | 'revision ' + toString(revs[i].seq) + ' (' + revs[i].status + ') dated ' + toString(revs[i].at)
              + ', before revision ' + toString(coalesce(revs[i - 1].seq, 0)) + ' written earlier (a writer clock behind)']),
      CASE WHEN any(r IN revs WHERE r.claim IS NOT NULL AND r.claim <> c.id)
           THEN 'holds a revision of ' + head([r IN revs WHERE r.claim <> c.id | r.claim]) END
    ] WHERE x IS NOT NULL] AS problems
}
WITH c, problems
WHERE size(problems) > 0
WITH collect(c.id + ': ' + reduce(s = '', p IN problems | s + CASE WHEN s = '' THEN '' ELSE '; ' END + p)) AS offending
RETURN size(offending) AS violations, offending[..$limit] AS offending
