// name: fact.existing_keys
// mode: read
// params: space, keys
// description: which of the given fact keys already exist in the space
// :param space => 'default'
// :param keys => ['user.timezone', 'user.city']
UNWIND $keys AS k
MATCH (f:Fact {space: $space, key: k})
RETURN f.key AS key
