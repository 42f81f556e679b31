// name: imports.advance_import
// mode: write
// params: space, name, done, digest, counts, errors, at, status, batch
// description: record a committed batch on the import (last statement of the batch transaction): lines done, their digest, counters, rejected lines (the first 100 kept)
// :param space => 'default'
// :param name => 'file:/data/claims.jsonl'
// :param done => 500
// :param digest => 'a3f1...'
// :param counts => {add: 480, update: 10, replace: 0, superseded: 0, disputed: 0, noop: 10, rejected: 0, staled: 0, rederived: 0}
// :param errors => []
// :param at => '2026-12-04T10:00:05Z'
// :param status => 'running'
// :param batch => 1
MATCH (i:Import {space: $space, name: $name})
SET i.done = $done, i.digest = $digest, i.batches = i.batches + $batch, i.updated_at = datetime($at),
    i.status = $status, i.errors = (i.errors + $errors)[..100],
    i.n_add = i.n_add + $counts.add, i.n_update = i.n_update + $counts.update,
    i.n_replace = i.n_replace + $counts.replace, i.n_superseded = i.n_superseded + $counts.superseded,
    i.n_disputed = i.n_disputed + $counts.disputed, i.n_noop = i.n_noop + $counts.noop,
    i.n_rejected = i.n_rejected + $counts.rejected, i.n_staled = i.n_staled + $counts.staled,
    i.n_rederived = i.n_rederived + $counts.rederived
SET i.finished_at = CASE WHEN $status = 'complete' THEN datetime($at) ELSE null END
RETURN i.done AS done
