// name: rules.affected_instances
// mode: write
// params: space, keys, at
// description: the rule instances a change of these fact keys affects: those that read a key, those whose join waits for it, and new instances of rules whose first premise matches it (created here)
// :param space => 'default'
// :param keys => ['user.employer']
// :param at => '2026-12-04T10:00:00Z'
// Bounded by the changed keys' dependents: READS edges from the fact, the (space, awaits) index, and
// one regex per active rule of the space (rules are few; the store is never scanned). The seeks are
// hints, since a plan compiled while the store was nearly empty scanned the whole Fact index (2,272 db
// hits for one edit in CI against 556 with the seek), and the cached plan outlived the store's growth.
UNWIND $keys AS k
CALL (k) {
  MATCH (f:Fact {space: $space, key: k})<-[:READS]-(i:RuleInstance)
  USING INDEX SEEK f:Fact(space, key)
  RETURN i
  UNION
  MATCH (i:RuleInstance {space: $space, awaits: k})
  USING INDEX SEEK i:RuleInstance(space, awaits)
  RETURN i
  UNION
  MATCH (r:Rule {space: $space, status: 'active'})
  USING INDEX SEEK r:Rule(space, status)
  WHERE k =~ r.anchor_regex
  WITH r, [p IN r.anchor_pos | split(k, '.')[p]] AS anchor
  WITH r, anchor, reduce(acc = '', seg IN split(r.conclusion_key, '.') |
         acc + CASE WHEN acc = '' THEN '' ELSE '.' END +
         CASE WHEN seg STARTS WITH '{' THEN anchor[toInteger(substring(seg, 1, size(seg) - 2))] ELSE seg END) AS derived
  MERGE (i:RuleInstance {space: $space, rule: r.name, key: derived})
  ON CREATE SET i.anchor = anchor, i.status = 'new', i.created_at = datetime($at)
  RETURN i
}
WITH DISTINCT i
RETURN i.rule AS rule, i.key AS key
ORDER BY key
