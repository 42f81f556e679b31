// version: 13
// description: versioned key schemas per space (bg.keys.declare_schema): one node per (space, version), the active one found by (space, status)
// params:
// Versions are created, never merged; the constraint still makes a second version with the same
// number (two concurrent declarations) fail instead of leaving two.
CREATE CONSTRAINT key_schema_space_version IF NOT EXISTS FOR (n:KeySchema) REQUIRE (n.space, n.version) IS UNIQUE;
CREATE RANGE INDEX key_schema_space_status IF NOT EXISTS FOR (n:KeySchema) ON (n.space, n.status);
