"""Dung argumentation frameworks outside the graph: ICCMA file formats (:mod:`.iccma`) and the
explanation of a grounded label (:mod:`.explain`)."""
