// name: schema.list_migrations
// mode: read
// params:
// description: migrations recorded in the graph, oldest first
// cross-space: schema migrations belong to the database, not to a space
MATCH (m:SchemaMigration)
RETURN m.version AS version, m.name AS name, m.checksum AS checksum, toString(m.applied_at) AS applied_at
ORDER BY m.version
