// version: 9
// description: derivation rules (versioned per space) and their instances: uniqueness for what MERGE creates, the indexes the write path seeks
// params:
// A Rule is stored once per (space, name, version); only the active version (status 'active') is
// evaluated, and the write path finds the active rules of a space by (space, status) when it locks
// a fact (is this key derived?) and when a key changes (does it start a new instance?).
// A RuleInstance is one (space, rule, key): the key it derives. The engine finds the instances
// that wait for a missing premise key by (space, awaits), and the instances of one key or one rule
// by (space, key) and (space, rule).
CREATE CONSTRAINT rule_space_name_version IF NOT EXISTS FOR (n:Rule) REQUIRE (n.space, n.name, n.version) IS UNIQUE;
CREATE RANGE INDEX rule_space_status IF NOT EXISTS FOR (n:Rule) ON (n.space, n.status);
CREATE CONSTRAINT rule_instance_space_rule_key IF NOT EXISTS FOR (n:RuleInstance) REQUIRE (n.space, n.rule, n.key) IS UNIQUE;
CREATE RANGE INDEX rule_instance_space_awaits IF NOT EXISTS FOR (n:RuleInstance) ON (n.space, n.awaits);
CREATE RANGE INDEX rule_instance_space_key IF NOT EXISTS FOR (n:RuleInstance) ON (n.space, n.key);
CREATE RANGE INDEX rule_instance_space_rule IF NOT EXISTS FOR (n:RuleInstance) ON (n.space, n.rule);
