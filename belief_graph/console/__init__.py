"""What people see in the Cypher console: Neo4j Browser, cypher-shell and Bloom.

- :mod:`.curated`: the catalogue of curated Cypher questions (``cypher/explore/``) with their
  parameters, shared by Browser's guide, ``belief-graph query``, ``belief-graph shell`` and the
  explore views;
- :mod:`.browser`: Browser's guide and graph style, and the files the local server overlays on its
  Browser;
- :mod:`.bloom`: the Bloom / Explore perspective (categories, colours, search phrases).

Nothing here writes to the database; the modules read the query registry and build text.
"""
