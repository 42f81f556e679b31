// name: rules.retire_justifications
// mode: write
// params: space, name, keep
// description: retire the justifications an earlier version of a rule gave the current claims of its instances' keys (they no longer make a conclusion current); returns those claims
// :param space => 'default'
// :param name => 'work_timezone'
// :param keep => 'rule:work_timezone@2'
// A retired justification still records why the claim was believed (support, history); currency
// treats it as dead (currency.mark_region), so a conclusion that only the old rule version gave
// goes stale unless the new version justifies it again. $keep (the new version's tag, or null when
// the rule is removed) is never retired.
MATCH (i:RuleInstance {space: $space, rule: $name})
MATCH (:Fact {space: $space, key: i.key})-[:CURRENT]->(c:Claim)
MATCH (j:Justification)-[:JUSTIFIES]->(c)
WHERE j.rule STARTS WITH 'rule:' + $name + '@' AND ($keep IS NULL OR j.rule <> $keep) AND NOT coalesce(j.retired, false)
SET j.retired = true
RETURN collect(DISTINCT c.id) AS claims
