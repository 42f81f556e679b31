"""How large a framework the server can solve, from its heap (pure).

The grounded solve (:mod:`belief_graph.services.argumentation`) is one write transaction, and
Neo4j keeps what a transaction writes in the heap until it commits: per argument its working
state (``state``, ``frontier``, ``undefeated``), then its ``label``, ``wave`` and mark label. A
transaction that needs more than the server allows is rolled back, and only after the whole
framework was imported and the solve had worked for minutes (a 12-byte ``p af 200000`` file:
34 s of import, then ``TransactionMemoryExceeded`` after 114 s). A framework above
:func:`solve_capacity` is refused before anything is written instead.

Measured on the local server (512 MB heap, Neo4j 5.26; peak ``estimatedUsedHeapMemory`` of the
solve's transaction in ``SHOW TRANSACTIONS``, sampled every 0.1 s):

======================  ============  =========================
arguments / attacks     peak memory   outcome
======================  ============  =========================
20,000 / 0              65 MB         solved (3,250 B/argument)
50,000 / 0              160 MB        solved (3,204 B/argument)
100,000 / 0             320 MB        solved (3,203 B/argument)
120,000 / 0             368 MB        rolled back (the 358.4 MiB pool)
20,000 / 100,000        45 MB         solved (random attacks)
20,000 / 300,000        45 MB         solved (random attacks)
20,000 / 300,000        60 MB         solved (a tenth attacks the rest)
======================  ============  =========================

The memory grows with the arguments the solve labels (an unattacked argument is labelled too:
no attacks is the worst case), not with the attacks it reads: 300,000 attacks cost no more than
100,000. So the limit is on arguments; attacks keep their input limit
(``BELIEF_GRAPH_LIMITS__AF_MAX_ATTACKS``).

**Formula** (conservative)::

    budget    = min(transaction_max, 70% of heap)    # Neo4j's dbms.memory.transaction.total.max
    arguments = floor(budget / 4,096 bytes)

4,096 bytes is the measured 3,250 rounded up by a quarter, for the other transactions that share
the pool and for measurement error: 91,750 arguments for the default 512 MB heap (the measured
ceiling lies between 100,000 and 120,000), 183,500 for 1 GB. The heap is the local server's
setting (``BELIEF_GRAPH_SERVER__HEAP``); a client of another server (Docker, remote) sets it to
that server's heap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..settings import ServerSettings

__all__ = ["ARGUMENT_BYTES", "TRANSACTION_SHARE", "SolveCapacity", "parse_size", "solve_capacity"]

ARGUMENT_BYTES: Final = 4096
"""Transaction memory the grounded solve is allowed per argument (3,250 measured, see above)."""
TRANSACTION_SHARE: Final = 0.7
"""Neo4j's default ``dbms.memory.transaction.total.max``: 70% of the heap for all transactions."""

_SIZE_RE = re.compile(r"^\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_UNITS: Final = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def parse_size(size: str) -> int | None:
    """``512m`` / ``1g`` / ``512MB`` / ``512MiB`` / ``1048576`` -> bytes (binary units, as the JVM
    and Neo4j read them); None when it is not such a size."""
    m = _SIZE_RE.match(size)
    if m is None:
        return None
    return int(m.group(1)) * _UNITS[m.group(2).lower()]


@dataclass(frozen=True)
class SolveCapacity:
    """The most arguments one grounded solve can label in ``budget`` bytes of transaction memory,
    and the setting that raises it."""

    arguments: int
    budget: int
    setting: str
    source: str
    """What the budget comes from, for messages (``70% of a 512m heap``)."""


def solve_capacity(server: ServerSettings) -> SolveCapacity | None:
    """The capacity of the server ``server`` describes; None when its heap is not a size this
    module reads (the JVM refuses such a heap at start anyway)."""
    heap = parse_size(server.heap)
    if heap is None:
        return None
    budget = int(heap * TRANSACTION_SHARE)
    setting, source = "BELIEF_GRAPH_SERVER__HEAP", f"70% of a {server.heap} heap"
    cap = parse_size(server.transaction_max) if server.transaction_max else None
    if cap is not None and cap < budget:
        budget = cap
        setting, source = "BELIEF_GRAPH_SERVER__TRANSACTION_MAX", f"a transaction_max of {server.transaction_max}"
    return SolveCapacity(budget // ARGUMENT_BYTES, budget, setting, source)
