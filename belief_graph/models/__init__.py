"""Pure pydantic models: what crosses the repository boundary (records become these).

One module per concept: :mod:`.beliefs` (claims, versions, revisions, disputes, recall hits; its
public names are re-exported here), :mod:`.support`, :mod:`.argumentation`, :mod:`.perspectives`,
:mod:`.retrieval`, :mod:`.rules` and :mod:`.imports`.
"""

from __future__ import annotations

from . import beliefs
from .beliefs import *  # noqa: F403  (the names in beliefs.__all__)
from .beliefs import KEY_RE as KEY_RE, ClaimInput as ClaimInput, Value as Value

__all__ = list(beliefs.__all__)
