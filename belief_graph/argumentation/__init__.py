"""Dung argumentation frameworks outside the graph: ICCMA file formats (:mod:`.iccma`)."""
