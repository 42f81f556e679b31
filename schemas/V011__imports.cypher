// version: 11
// description: bulk imports: one Import node per (space, name) records how far an import has committed, so an interrupted import resumes without writing a line twice
// params:
CREATE CONSTRAINT import_space_name IF NOT EXISTS FOR (n:Import) REQUIRE (n.space, n.name) IS UNIQUE;
