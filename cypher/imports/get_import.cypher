// name: imports.get_import
// mode: read
// params: space, name
// description: one bulk import's progress and counters
// :param space => 'default'
// :param name => 'file:/data/claims.jsonl'
MATCH (i:Import {space: $space, name: $name})
RETURN i {.name, .source, .status, .done, .digest, .batches, .runs, .errors, .n_add, .n_update, .n_replace,
          .n_superseded, .n_disputed, .n_noop, .n_rejected, .n_staled, .n_rederived,
          started_at: toString(i.started_at), updated_at: toString(i.updated_at),
          finished_at: toString(i.finished_at)} AS import
