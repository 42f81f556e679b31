// name: schema.show_indexes
// mode: read
// params:
// description: every index with type, state, population and options (vector dimension, similarity)
SHOW INDEXES YIELD name, type, state, populationPercent, labelsOrTypes, properties, options
RETURN name, type, state, populationPercent AS population, labelsOrTypes AS labels, properties, options
