// name: support.list_audits
// mode: read
// params: space, limit
// description: the audits of one space (reconsolidation, updates that moved conclusions, rule changes), newest first
// :param space => 'default'
// :param limit => 50
MATCH (a:Audit {space: $space})
WHERE a.at IS NOT NULL
WITH a ORDER BY a.at DESC, a.id DESC LIMIT $limit
RETURN a {.id, .op, .mode, .reason, .agent, .region, .waves, .withdrew, .retained, .reinstated, .staled, .refreshed,
          .rederived, .source_key, .into_key, at: toString(a.at),
          roots: [(a)-[:ROOT]->(n) | n.id]} AS audit
