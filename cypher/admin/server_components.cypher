// name: admin.server_components
// mode: read
// params:
// description: Neo4j product name, version and edition
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS version, edition
