// name: admin.count_by_label_status
// mode: read
// params: space
// description: node counts by label and status (all spaces when $space is null)
// cross-space: db stats --all-spaces counts every space when $space is null
// :param space => 'default'
MATCH (n)
WHERE $space IS NULL OR n.space = $space
UNWIND labels(n) AS label
RETURN label, n.status AS status, count(*) AS count
ORDER BY label, status
