// name: support.get_audit
// mode: read
// params: space, id
// description: one audit with its roots and the claims it withdrew, retained, reinstated, made stale, made current again and re-derived (and why)
// :param space => 'default'
// :param id => 'a-1'
MATCH (a:Audit {space: $space, id: $id})
CALL (a) {
  OPTIONAL MATCH (a)-[r:ROOT|WITHDREW|RETAINED|REINSTATED|STALED|REFRESHED|REDERIVED]->(n)
  WITH r, n WHERE n IS NOT NULL
  ORDER BY type(r), n.id
  RETURN collect({action: type(r), id: n.id, kind: CASE WHEN n:Episode THEN 'episode' ELSE 'claim' END,
                  text: n.text, key: n.key, status: coalesce(n.status, 'active'), prior: r.prior, via: r.via, lost: r.lost,
                  rule: r.rule, superseded: r.superseded}) AS entries
}
RETURN a {.id, .op, .mode, .reason, .agent, .region, .waves, .withdrew, .retained, .reinstated, .staled, .refreshed,
          .rederived, .source_key, .into_key, at: toString(a.at)} AS audit, entries
