// name: imports.begin_import
// mode: write
// params: space, name, source, at, restart
// description: start or resume a bulk import: the Import node of (space, name) with how many lines are committed and the digest of those lines; restart sets the progress back to zero
// :param space => 'default'
// :param name => 'file:/data/claims.jsonl'
// :param source => '/data/claims.jsonl'
// :param at => '2026-12-04T10:00:00Z'
// :param restart => false
// The progress (`done` lines, `digest` of those lines) is advanced by imports.advance_import in the
// same transaction as the claims of each batch, so it never says more or less than what committed.
// Counters are cumulative over every run of the import; `restart` clears them (the claims already
// written stay: a restart writes its lines again through the write path).
MERGE (i:Import {space: $space, name: $name})
ON CREATE SET i.started_at = datetime($at), i.done = 0, i.digest = '', i.batches = 0, i.runs = 0,
              i.errors = [], i.n_add = 0, i.n_update = 0, i.n_replace = 0, i.n_superseded = 0,
              i.n_disputed = 0, i.n_noop = 0, i.n_rejected = 0, i.n_staled = 0, i.n_rederived = 0
SET i.done = CASE WHEN $restart THEN 0 ELSE i.done END,
    i.digest = CASE WHEN $restart THEN '' ELSE i.digest END,
    i.errors = CASE WHEN $restart THEN [] ELSE i.errors END,
    i.n_add = CASE WHEN $restart THEN 0 ELSE i.n_add END,
    i.n_update = CASE WHEN $restart THEN 0 ELSE i.n_update END,
    i.n_replace = CASE WHEN $restart THEN 0 ELSE i.n_replace END,
    i.n_superseded = CASE WHEN $restart THEN 0 ELSE i.n_superseded END,
    i.n_disputed = CASE WHEN $restart THEN 0 ELSE i.n_disputed END,
    i.n_noop = CASE WHEN $restart THEN 0 ELSE i.n_noop END,
    i.n_rejected = CASE WHEN $restart THEN 0 ELSE i.n_rejected END,
    i.n_staled = CASE WHEN $restart THEN 0 ELSE i.n_staled END,
    i.n_rederived = CASE WHEN $restart THEN 0 ELSE i.n_rederived END
SET i.source = $source, i.status = 'running', i.runs = i.runs + 1, i.updated_at = datetime($at),
    i.finished_at = null
RETURN i {.name, .source, .status, .done, .digest, .batches, .runs, .errors, .n_add, .n_update, .n_replace,
          .n_superseded, .n_disputed, .n_noop, .n_rejected, .n_staled, .n_rederived,
          started_at: toString(i.started_at), updated_at: toString(i.updated_at),
          finished_at: toString(i.finished_at)} AS import
