// name: fact.register_key
// mode: write
// params: space, key, description, embedding, at
// description: add or describe a known fact key (the key registry used for key resolution)
// :param space => 'default'
// :param key => 'user.timezone'
// :param description => 'the time zone the user lives and schedules in'
// :param embedding => null
// :param at => '2026-01-01T00:00:00Z'
MERGE (f:Fact {space: $space, key: $key})
ON CREATE SET f.created_at = datetime($at)
SET f.description = $description, f.embedding = $embedding, f.registered = true
RETURN f.key AS key, f.description AS description, f.value_type AS value_type
