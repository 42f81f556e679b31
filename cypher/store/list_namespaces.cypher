// name: store.list_namespaces
// mode: read
// params: space, prefix
// description: the distinct key paths (every segment but the last, after the prefix) of the facts under a prefix that hold a current belief (the LangGraph store's namespaces)
// :param space => 'default'
// :param prefix => 'lg.'
MATCH (f:Fact {space: $space})
USING INDEX f:Fact(space, key)
WHERE f.key STARTS WITH $prefix AND EXISTS { (f)-[:CURRENT]->(:Claim {status: 'active'}) }
WITH split(substring(f.key, size($prefix)), '.') AS parts
RETURN DISTINCT parts[0..size(parts) - 1] AS namespace
