// name: fact.set_value_type
// mode: write
// params: space, key, value_type
// description: record the value type of a fact on its first typed write (later writes must match)
// :param space => 'default'
// :param key => 'user.age'
// :param value_type => 'number'
MATCH (f:Fact {space: $space, key: $key})
SET f.value_type = coalesce(f.value_type, $value_type)
RETURN f.value_type AS value_type
