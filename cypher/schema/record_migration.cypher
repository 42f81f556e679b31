// name: schema.record_migration
// mode: write
// params: version, name, checksum, statements
// description: record that a schemas/ migration was applied (idempotent)
// cross-space: schema migrations belong to the database, not to a space
// :param version => 1
// :param name => 'V001__constraints'
// :param checksum => 'sha256...'
// :param statements => 16
MERGE (m:SchemaMigration {version: $version})
ON CREATE SET m.applied_at = datetime()
SET m.name = $name, m.checksum = $checksum, m.statements = $statements
RETURN m.version AS version, m.name AS name, m.checksum AS checksum, toString(m.applied_at) AS applied_at
