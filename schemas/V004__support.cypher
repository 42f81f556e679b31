// version: 4
// description: derive() finds an earlier derivation of the same statement by its signature (space, sig)
// params:
// `sig` is a hash of (key, text) that only claims created by derive() carry; the uniqueness
// constraint is also the index derive() seeks on, and it makes a second concurrent derivation of
// the same statement fail instead of creating a twin claim (derive then retries and adds an
// alternative justification). Claims without `sig` are not constrained.
CREATE CONSTRAINT claim_space_sig IF NOT EXISTS FOR (n:Claim) REQUIRE (n.space, n.sig) IS UNIQUE;
