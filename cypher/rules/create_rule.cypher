// name: rules.create_rule
// mode: write
// params: space, name, spec, description, premise_keys, anchor_pos, anchor_regex, conclusion_key, conclusion_regex, direct_writes, at
// description: store a new version of a derivation rule (version 1, or the last version + 1, which replaces the active one)
// :param space => 'default'
// :param name => 'work_timezone'
// :param spec => '{"name": "work_timezone"}'
// :param description => 'the timezone the user works in follows the employer'
// :param premise_keys => ['user.employer', 'org.{0}.timezone']
// :param anchor_pos => []
// :param anchor_regex => '^user\\.employer$'
// :param conclusion_key => 'user.work_timezone'
// :param conclusion_regex => '^user\\.work_timezone$'
// :param direct_writes => 'refuse'
// :param at => '2026-12-04T10:00:00Z'
// The compiled form (docs/rules.md): premise_keys are key templates in slot form ({0} = the first
// bound variable), anchor_pos the segment of the first premise key each anchor variable comes from,
// the regexes match whole keys segment by segment (no backtracking: a segment never holds a dot).
OPTIONAL MATCH (old:Rule {space: $space, name: $name})
WITH max(old.version) AS last
CALL () {
  OPTIONAL MATCH (prev:Rule {space: $space, name: $name, status: 'active'})
  SET prev.status = 'replaced', prev.replaced_at = datetime($at)
  RETURN prev
}
CREATE (r:Rule {space: $space, name: $name, version: coalesce(last, 0) + 1})
SET r.status = 'active', r.spec = $spec, r.description = $description, r.premise_keys = $premise_keys,
    r.anchor_pos = $anchor_pos, r.anchor_regex = $anchor_regex, r.conclusion_key = $conclusion_key,
    r.conclusion_regex = $conclusion_regex, r.direct_writes = $direct_writes, r.created_at = datetime($at)
WITH r, prev
CALL (r, prev) {
  WITH r, prev WHERE prev IS NOT NULL
  CREATE (r)-[:REPLACES]->(prev)
}
RETURN r {.name, .version, .status, .spec, created_at: toString(r.created_at)} AS rule,
       prev.version AS replaced
