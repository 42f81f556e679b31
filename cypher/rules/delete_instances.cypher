// name: rules.delete_instances
// mode: write
// params: space, name
// description: delete the instances of a removed rule (and their READS edges); the claims they derived stay, with their history
// :param space => 'default'
// :param name => 'work_timezone'
MATCH (i:RuleInstance {space: $space, rule: $name})
DETACH DELETE i
RETURN count(*) AS deleted
