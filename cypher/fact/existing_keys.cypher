// name: fact.existing_keys
// mode: read
// params: space, keys
// description: which of the given fact keys already exist in the space, with the value type each holds (null: none yet)
// :param space => 'default'
// :param keys => ['user.timezone', 'user.city']
UNWIND $keys AS k
MATCH (f:Fact {space: $space, key: k})
RETURN f.key AS key, f.value_type AS value_type
