// name: schema.show_constraints
// mode: read
// params:
// description: every constraint with its type, label and properties
SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties
RETURN name, type, labelsOrTypes AS labels, properties
