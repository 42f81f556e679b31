// name: admin.change_initial_password
// mode: write
// params: old, new
// description: replace the initial password of a fresh Neo4j data dir (runs on the system database)
// database: system
// :param old => 'neo4j'
// :param new => 'belief-graph'
ALTER CURRENT USER SET PASSWORD FROM $old TO $new
