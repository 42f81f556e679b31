"""Neo4j access: the driver wrapper, the Cypher query registry and its lexer, versioned schema, the
neomodel (OGM) view."""
