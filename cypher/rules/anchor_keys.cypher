// name: rules.anchor_keys
// mode: read
// params: space, regex, prefix
// description: the keys of this space with a current belief that match a rule's first premise (instances to create when a rule is added or run by hand)
// :param space => 'default'
// :param regex => '^user\\.[A-Za-z0-9_][A-Za-z0-9_\\-]*\\.employer$'
// :param prefix => 'user.'
// Run when a rule is added (or derive_by_rule without a key), never on the write path. $prefix is
// the literal start of the pattern (possibly ''), so the (space, key) index narrows the range.
MATCH (f:Fact {space: $space})
WHERE f.key STARTS WITH $prefix AND f.key =~ $regex AND EXISTS { (f)-[:CURRENT]->(:Claim) }
RETURN f.key AS key
ORDER BY key
