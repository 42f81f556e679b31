// version: 2
// description: range indexes for the space/status/key filters every read uses
// params:
CREATE RANGE INDEX claim_space_status IF NOT EXISTS FOR (n:Claim) ON (n.space, n.status);
CREATE RANGE INDEX claim_space_key IF NOT EXISTS FOR (n:Claim) ON (n.space, n.key);
CREATE RANGE INDEX claim_space_agent IF NOT EXISTS FOR (n:Claim) ON (n.space, n.agent);
CREATE RANGE INDEX claim_space_kind IF NOT EXISTS FOR (n:Claim) ON (n.space, n.kind);
CREATE RANGE INDEX episode_space_at IF NOT EXISTS FOR (n:Episode) ON (n.space, n.at);
CREATE RANGE INDEX episode_space_conversation IF NOT EXISTS FOR (n:Episode) ON (n.space, n.conversation);
CREATE RANGE INDEX dispute_space_status IF NOT EXISTS FOR (n:Dispute) ON (n.space, n.status);
CREATE RANGE INDEX dispute_space_key IF NOT EXISTS FOR (n:Dispute) ON (n.space, n.key);
CREATE RANGE INDEX audit_space_at IF NOT EXISTS FOR (n:Audit) ON (n.space, n.at);
CREATE RANGE INDEX deliberation_space_at IF NOT EXISTS FOR (n:Deliberation) ON (n.space, n.at);
CREATE RANGE INDEX revision_claim IF NOT EXISTS FOR (n:Revision) ON (n.claim);
