// name: fact.declare_keys
// mode: write
// params: space, keys, at
// description: register the keys of a key schema (description and embedding, as fact.register_key does) and set each declared value type on a fact that holds none yet
// :param space => 'default'
// :param keys => [{key: 'user.city', description: 'the city the user lives in', embedding: null, value_type: 'string'}]
// :param at => '2026-01-01T00:00:00Z'
// The caller checked beforehand that no declared type differs from a type already stored.
UNWIND $keys AS row
MERGE (f:Fact {space: $space, key: row.key})
ON CREATE SET f.created_at = datetime($at)
SET f.description = row.description, f.embedding = row.embedding, f.registered = true,
    f.value_type = coalesce(f.value_type, row.value_type)
RETURN count(f) AS declared
