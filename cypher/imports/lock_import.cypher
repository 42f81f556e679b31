// name: imports.lock_import
// mode: write
// params: space, name
// description: take the import's write lock (first statement of each batch transaction) and read its committed progress
// :param space => 'default'
// :param name => 'file:/data/claims.jsonl'
// Two processes running one import serialize here; the second one reads the progress the first
// committed (read after the lock is held) and stops instead of writing those lines again.
MATCH (i:Import {space: $space, name: $name})
SET i.lock_seq = coalesce(i.lock_seq, 0) + 1
WITH i
RETURN i.done AS done, i.digest AS digest
