// name: imports.list_imports
// mode: read
// params: space, limit
// description: the bulk imports of a space, most recently active first, with progress and counters
// :param space => 'default'
// :param limit => 50
MATCH (i:Import {space: $space})
USING INDEX i:Import(space, name)
WHERE i.name IS NOT NULL
RETURN i {.name, .source, .status, .done, .digest, .batches, .runs, .errors, .n_add, .n_update, .n_replace,
          .n_superseded, .n_disputed, .n_noop, .n_rejected, .n_staled, .n_rederived,
          started_at: toString(i.started_at), updated_at: toString(i.updated_at),
          finished_at: toString(i.finished_at)} AS import
ORDER BY i.updated_at DESC
LIMIT $limit
