// name: rules.evaluate_instances
// mode: read
// params: space, instances
// description: evaluate rule instances: walk each one's premise chain (the value of one premise picks the key of the next) over the current beliefs, and return it with the derived key's current claim and that claim's live justifications
// :param space => 'default'
// :param instances => [{rule: 'work_timezone', key: 'user.work_timezone'}]
// The chain is one reduce over the rule's key templates: each step fills its template from the
// bound values (slot {n} = the n-th bound value: the anchor's key segments, then each premise's
// value), looks the key up with one index seek on (space, key) and binds the current claim's value;
// the first key without an active current claim stops the walk (missing). The caller holds the
// derived keys' fact locks (claim.lock_facts) before it evaluates.
UNWIND $instances AS inst
// The unique seek is a hint: compiled on an empty store the plan took a range index instead,
// which reads every instance of the rule (or of the key).
MATCH (i:RuleInstance {space: $space, rule: inst.rule, key: inst.key})
USING INDEX SEEK i:RuleInstance(space, rule, key)
MATCH (r:Rule {space: $space, name: i.rule, status: 'active'})
WITH i, r, reduce(st = {binds: i.anchor, claims: [], values: [], reads: [], missing: null}, t IN r.premise_keys |
  CASE WHEN st.missing IS NOT NULL THEN st ELSE
    head([k IN [reduce(acc = '', seg IN split(t, '.') |
                  acc + CASE WHEN acc = '' THEN '' ELSE '.' END +
                  CASE WHEN seg STARTS WITH '{' THEN st.binds[toInteger(substring(seg, 1, size(seg) - 2))] ELSE seg END)] |
      coalesce(head(COLLECT { MATCH (:Fact {space: $space, key: k})-[:CURRENT]->(c:Claim) WHERE c.status = 'active'
                              RETURN {binds: st.binds + [toString(c.value)], claims: st.claims + [c.id],
                                      values: st.values + [c.value], reads: st.reads + [k], missing: null} }),
               {binds: st.binds, claims: st.claims, values: st.values, reads: st.reads, missing: k})])
  END) AS st
OPTIONAL MATCH (:Fact {space: $space, key: i.key})-[:CURRENT]->(d:Claim)
RETURN i.rule AS rule, r.version AS version, r.spec AS spec, i.key AS key, i.anchor AS anchor,
       coalesce(i.reads, []) AS reads_before, i.status AS status_before,
       st.claims AS claims, st.values AS values, st.reads AS reads, st.missing AS missing,
       d {.id, .value, .text, .status, created_at: toString(d.created_at)} AS current,
       CASE WHEN d IS NULL THEN [] ELSE [(j:Justification)-[:JUSTIFIES]->(d) WHERE NOT coalesce(j.retired, false) |
         [(p)-[:PREMISE_OF]->(j) | p.id]] END AS families
