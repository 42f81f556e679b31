// version: 1
// description: uniqueness constraints for every key belief_graph MERGEs on (DESIGN.md section 1)
// params:
// Run as a whole in cypher-shell (`cypher-shell -f schemas/V001__constraints.cypher`) or let
// `belief-graph db init` apply it. Composite uniqueness constraints work on Community Edition.
CREATE CONSTRAINT agent_space_id IF NOT EXISTS FOR (n:Agent) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT episode_space_id IF NOT EXISTS FOR (n:Episode) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT fact_space_key IF NOT EXISTS FOR (n:Fact) REQUIRE (n.space, n.key) IS UNIQUE;
CREATE CONSTRAINT claim_space_id IF NOT EXISTS FOR (n:Claim) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT justification_space_id IF NOT EXISTS FOR (n:Justification) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT revision_id IF NOT EXISTS FOR (n:Revision) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT audit_space_id IF NOT EXISTS FOR (n:Audit) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT perspective_space_id IF NOT EXISTS FOR (n:Perspective) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT perspective_space_name IF NOT EXISTS FOR (n:Perspective) REQUIRE (n.space, n.name) IS UNIQUE;
CREATE CONSTRAINT concept_space_perspective_name IF NOT EXISTS FOR (n:Concept) REQUIRE (n.space, n.perspective, n.name) IS UNIQUE;
CREATE CONSTRAINT deliberation_space_id IF NOT EXISTS FOR (n:Deliberation) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT proposal_id IF NOT EXISTS FOR (n:Proposal) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT dispute_space_id IF NOT EXISTS FOR (n:Dispute) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT authority_rule_space_agent_pattern IF NOT EXISTS FOR (n:AuthorityRule) REQUIRE (n.space, n.agent, n.pattern) IS UNIQUE;
CREATE CONSTRAINT policy_rule_space_pattern IF NOT EXISTS FOR (n:PolicyRule) REQUIRE (n.space, n.pattern) IS UNIQUE;
CREATE CONSTRAINT schema_migration_version IF NOT EXISTS FOR (n:SchemaMigration) REQUIRE n.version IS UNIQUE;
