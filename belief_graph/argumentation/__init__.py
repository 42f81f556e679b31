"""Dung argumentation frameworks outside the graph: ICCMA file formats (:mod:`.iccma`), the
explanation of a grounded label (:mod:`.explain`) and the size of framework the server can solve
(:mod:`.capacity`)."""
