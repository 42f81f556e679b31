"""Argumentation: attack graphs in Neo4j and Dung's grounded labelling computed in Cypher.

An attack graph lives in a *namespace* ``ns`` of a space: every participating node has the extra
label ``Argument`` with ``space``, ``ns`` and ``name``, and attacks are ``ATTACKS`` edges.
Namespaces used by the project: ``framework:<name>`` (an imported ICCMA file, with a
``(:Framework)`` node), ``deliberation:<id>``, ``dispute:<key>`` and short-lived ``scratch:<id>``.
Claim/Proposal nodes join a namespace with :meth:`ArgumentationService.enlist` (their name is
their id); plain in-memory frameworks from other services are stored with
:meth:`ArgumentationService.store_attacks`.

**Grounded labelling** (DESIGN.md §2; docs/argumentation.md has the details and measurements):
IN = every attacker OUT, OUT = attacked by an IN argument, the rest UNDEC, least fixpoint.
:meth:`ArgumentationService.ground` runs, in ONE write transaction:

0. ``ground_small`` for a namespace of at most :data:`SMALL_MAX` arguments and
   :data:`SMALL_MAX_ATTACKS` attacks (every dispute and deliberation, the sparse corpus files): the whole solve in one statement with no working state (the waves over lists in
   memory, only changed labels written); it returns no row for a larger namespace, which is then
   remembered so that its next solve goes straight to step 1;
1. ``start_grounded`` (one statement): per argument, the number of incoming attack edges from
   the namespace, written as ``undefeated`` only where it is 2 or more (missing = 1), and
   unattacked arguments get ``frontier = 1``; then waves 1..8 (below), and 8 more from the
   next non-empty wave (after a chain jump that can be far ahead);
   when no frontier is left it also writes the labels and returns the names by label, so a
   framework needing at most 16 waves (every dispute, deliberation and corpus file), or a long
   chain (1 wave, its jump, a few waves after it) is solved by this one statement plus the
   commit (an empty wave iteration costs 10-12 µs, measured over 1,000-5,000 of them; a batch
   of 8 instead of 32 leaves fewer of them in a small file's solve);
2. otherwise ``propagate_waves`` (repeated): wave ``k`` labels the arguments with
   ``frontier = k`` IN, their undecided targets OUT, and decrements the counters of what those
   new OUT arguments attack; counters that reach 0 put the argument on ``frontier = k + 1``.
   **Chain jump:** an argument that becomes OUT in wave ``k`` and starts a run of at least 3
   "links" (one attacker in the namespace, which attacks nothing else; the link attacks one
   argument) labels the whole run at once (label by parity, wave ``k + (i + 1) / 2``), and puts
   the run's last IN argument on the frontier of its wave, where the waves resume; the empty
   waves in between are skipped (each batch starts at the next non-empty wave). One statement
   runs a batch of waves server-side (``UNWIND range(first, last) ... CALL (k) {...}``, each
   run sees the previous one's writes); batches double in size (128, 256, ... 4096 waves);
3. the finish, in the statement that finds no frontier left (``start_grounded`` or the last
   ``propagate_waves``): the waves work on a transient ``state`` and counters; the finish writes
   ``label`` from the state (undecided = UNDEC) with its mark and drops the working properties,
   so a re-solve that changes no label commits almost nothing; the names by label are returned.

Each argument enters a frontier and gets a label at most once and each attack is expanded at
most twice, so the work is linear in arguments + attacks (the bench prints db hits per
argument+attack to show it).
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

from ..argumentation import iccma
from ..argumentation.capacity import ARGUMENT_BYTES, solve_capacity
from ..argumentation.explain import explain_row
from ..db.driver import Graph, Tx
from ..errors import FrameworkNotFound, LimitExceeded, NotFoundError, ValidationError, listed, shown
from ..limits import check_argument_names
from ..models import new_id, utcnow
from ..models.argumentation import (
    Attack,
    AttackGraph,
    Framework,
    GroundedResult,
    LabelExplanation,
)
from ..repositories.argumentation import ArgumentationRepository
from ..settings import LimitSettings, ServerSettings

__all__ = [
    "FIRST_BATCH",
    "FRAMEWORK_PREFIX",
    "IMPORT_CHUNK",
    "MAX_BATCH",
    "NEXT_BATCH",
    "SMALL_MAX",
    "SMALL_MAX_ATTACKS",
    "ArgumentationService",
    "explain_label",
    "framework_ns",
    "ground",
]

FRAMEWORK_PREFIX: Final = "framework:"
SCRATCH_PREFIX: Final = "scratch:"
SMALL_MAX: Final = 128
"""Namespaces of at most this many arguments (and :data:`SMALL_MAX_ATTACKS` attacks) are solved by
``ground_small`` (one statement, the waves over lists in memory, no working state); larger ones by
``start_grounded`` and the waves in the graph. Measured side by side: 12 arguments 1.9 ms vs
2.5 ms per solve; the sparse corpus files of 33-128 arguments 25-40% faster; the list statement
grows with arguments x attacks, so dense files (AFGen, 20-40 attacks per argument) are not."""
SMALL_MAX_ATTACKS: Final = 256
"""Attack edges into the arguments (their store degree) up to which ``ground_small`` is used."""
LARGE_MEMO: Final = 1024
"""Namespaces remembered as larger than :data:`SMALL_MAX` / :data:`SMALL_MAX_ATTACKS`, by a solve or because this service wrote
them (their next solve skips the ``ground_small`` attempt; only a hint: a wrong entry costs one
statement, never a wrong label)."""
FIRST_BATCH: Final = 8
"""Waves of each of the two batches of the first statement (the corpus needs at most 4: one
round trip; a long chain needs 1 + the few after its jump: one round trip too)."""
NEXT_BATCH: Final = 128
"""Waves of the first ``propagate_waves`` batch (then doubling). A statement costs about as much
as 130-180 empty wave iterations (1.5-2 ms against 10-12 µs), so a first continuation of 128
waves wastes at most about one statement's cost, while doubling from 16 spent 3 extra statements
on a framework needing 250 waves."""
MAX_BATCH: Final = 4096
"""Cap of the doubling batch: at most this many empty wave iterations are wasted at the end."""
IMPORT_CHUNK: Final = 20_000
"""Arguments + attacks written per transaction by a large import. Neo4j's default transaction
memory cap (70% of the 512 MB heap of the local server) is hit by ~2*10^5 new entities in one
transaction, so imports above this size are written in chunks after full validation (see
:meth:`ArgumentationService.store_framework`)."""
DELETE_BATCH: Final = 10_000

_NAME_RE = re.compile(r"[^\x00-\x1f\x7f]{1,200}")
T = TypeVar("T")


def framework_ns(name: str) -> str:
    """The namespace of the imported framework ``name``."""
    return FRAMEWORK_PREFIX + name


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not name.strip() or not _NAME_RE.fullmatch(name):
        raise ValidationError(f"framework name must be 1-200 printable characters, got {shown(name)}")
    return name


def _check_ns(ns: str) -> str:
    if not isinstance(ns, str) or not ns.strip() or not _NAME_RE.fullmatch(ns):
        raise ValidationError(f"namespace must be 1-200 printable characters, got {shown(ns)}")
    return ns


def _chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


class ArgumentationService:
    """Attack graphs, imported frameworks and grounded labelling for one space."""

    def __init__(
        self, graph: Graph, space: str, limits: LimitSettings | None = None, server: ServerSettings | None = None
    ) -> None:
        self.graph = graph
        self.space = space
        self.limits = limits if limits is not None else LimitSettings()
        """Size limits of framework files and of :meth:`store_framework` (``BELIEF_GRAPH_LIMITS__AF_*``)."""
        self.capacity = solve_capacity(server if server is not None else ServerSettings())
        """The most arguments one grounded solve can label in the server's heap
        (:mod:`belief_graph.argumentation.capacity`); larger frameworks are refused before anything
        is written."""
        self.repo = ArgumentationRepository(graph, space)
        self._large: dict[str, None] = {}
        """Namespaces seen or written larger than SMALL_MAX / SMALL_MAX_ATTACKS (insertion-ordered, bounded)."""

    # -- frameworks --------------------------------------------------------------------------
    def import_framework(
        self, path: str | Path, name: str | None = None, *, format: str | None = None, replace: bool = False
    ) -> Framework:
        """Read an ICCMA file (``.apx``/``.tgf``/``.af``) and store it as framework ``name``.

        The file is parsed and validated completely before anything is written.

        Raises:
            FormatError: malformed file (path, line, expected); ValidationError: bad name, or the
                framework exists and ``replace`` is false.
        """
        af = iccma.read_framework(path, _format(format), self.limits)
        return self.store_framework(af, name if name is not None else Path(path).stem, replace=replace)

    def store_framework(self, af: AttackGraph, name: str, *, replace: bool = False) -> Framework:
        """Store an in-memory framework under ``name`` (namespace ``framework:<name>``).

        Up to :data:`IMPORT_CHUNK` arguments + attacks it is ONE transaction. Larger ones are
        written in chunked transactions behind a ``(:Framework {status: 'importing'})`` node that
        only the last one flips to ``'ready'``; on any failure the partial import is deleted
        before the error is re-raised, and an unfinished one is never served as a framework.
        """
        _check_name(name)
        if not af.arguments:
            raise ValidationError("empty framework: no arguments")
        self._check_size(af)
        ns = framework_ns(name)
        existing = self.repo.get_framework(name)
        if existing is not None:
            if not replace:
                raise ValidationError(
                    f"framework {name!r} already exists in space {self.space!r} (status {existing.status}); "
                    "pass replace=True (CLI: --replace) to overwrite it"
                )
            self.delete_framework(name)
        else:
            self.repo.delete_arguments_batched(ns, DELETE_BATCH)  # leftovers of a crashed import
        meta: dict[str, Any] = {
            "name": name,
            "ns": ns,
            "source": af.source,
            "format": af.format,
            "arguments": len(af.arguments),
            "attacks": len(af.attacks),
            "created_at": utcnow().isoformat(),
        }
        if len(af.arguments) + len(af.attacks) <= IMPORT_CHUNK:

            def work(tx: Tx) -> Framework:
                fw = self.repo.create_framework(tx, status="ready", **meta)
                self._write_graph(tx, ns, af)
                return fw

            return self.graph.write_tx(work, name="argumentation.import_framework")

        self.graph.write_tx(lambda tx: self.repo.create_framework(tx, status="importing", **meta))
        try:
            self._write_chunked(ns, af)
            fw = self.repo.set_framework_status(name, "ready")
        except BaseException:
            self._discard(name, ns)
            raise
        if fw is None:  # deleted concurrently
            raise FrameworkNotFound(name, self.space)
        return fw

    def _check_size(self, af: AttackGraph) -> None:
        check_argument_names(af.arguments)
        lim = self.limits
        if len(af.arguments) > lim.af_max_arguments:
            raise LimitExceeded(
                "arguments", len(af.arguments), lim.af_max_arguments, "BELIEF_GRAPH_LIMITS__AF_MAX_ARGUMENTS"
            )
        if len(af.attacks) > lim.af_max_attacks:
            raise LimitExceeded("attacks", len(af.attacks), lim.af_max_attacks, "BELIEF_GRAPH_LIMITS__AF_MAX_ATTACKS")
        self._check_solvable(len(af.arguments))

    def _check_solvable(self, arguments: int) -> None:
        """Refuse a framework whose grounded solve cannot fit in the server's transaction memory
        (it would be rolled back after minutes, see :mod:`belief_graph.argumentation.capacity`)."""
        cap = self.capacity
        if cap is not None and arguments > cap.arguments:
            raise LimitExceeded(
                f"arguments one grounded solve can label in {cap.source} ({ARGUMENT_BYTES:,} bytes of "
                "transaction memory each)",
                arguments,
                cap.arguments,
                cap.setting,
                then="restart the server",
            )

    def framework(self, name: str) -> Framework:
        """A stored, completely imported framework.

        Raises:
            FrameworkNotFound: no such framework, or its import did not finish.
        """
        fw = self.repo.get_framework(_check_name(name))
        if fw is None or fw.status != "ready":
            raise FrameworkNotFound(name, self.space)
        return fw

    def frameworks(self) -> list[Framework]:
        """Every framework of the space (any status), by name."""
        return self.repo.list_frameworks()

    def delete_framework(self, name: str) -> bool:
        """Delete a framework and its arguments; False when there was none."""
        fw = self.repo.get_framework(_check_name(name))
        if fw is None:
            return False
        self._discard(name, fw.ns)
        return True

    def export_framework(self, ns: str) -> AttackGraph:
        """The attack graph of a namespace as an in-memory :class:`AttackGraph` (one read tx).

        Raises:
            NotFoundError: the namespace has no arguments.
        """
        names, pairs = self.repo.export(_check_ns(ns))  # one statement: the driver's execute_query
        if not names:
            raise NotFoundError(f"no arguments in namespace {ns!r} of space {self.space!r}")
        return AttackGraph(tuple(names), tuple(pairs), source=ns)

    def export_text(self, name: str, format: str = "apx") -> str:
        """A stored framework written back as ICCMA text."""
        af = self.export_framework(self.framework(name).ns)
        return iccma.write(af, format)

    # -- namespaces for other services ----------------------------------------------------------
    def store_attacks(self, ns: str, arguments: Iterable[str], attacks: Iterable[Sequence[str]]) -> AttackGraph:
        """Replace the plain arguments of namespace ``ns`` by this in-memory framework (one tx).

        For services that build a framework in memory (conflict strategy, studies). Claim/Proposal
        nodes enlisted in ``ns`` stay; their names must not clash.

        Raises:
            ValidationError: duplicate or blank names, unknown attack endpoints, or too large for
                one transaction (use :meth:`store_framework`).
        """
        _check_ns(ns)
        af = AttackGraph.from_lists(arguments, attacks, source=ns)
        if len(af.arguments) + len(af.attacks) > 5 * IMPORT_CHUNK:
            raise ValidationError("framework too large for one transaction; use store_framework / import_framework")

        def work(tx: Tx) -> None:
            self.repo.delete_arguments(ns, tx)
            self._write_graph(tx, ns, af)

        self.graph.write_tx(work, name="argumentation.store_attacks")
        return af

    def store_graph(self, ns: str, af: AttackGraph) -> None:
        """Write ``af`` into the (empty) namespace ``ns``: one transaction up to
        :data:`IMPORT_CHUNK` arguments + attacks, else chunked transactions (a failure deletes
        what was written before re-raising). Used for scratch and bench namespaces."""
        _check_ns(ns)
        check_argument_names(af.arguments)
        if len(af.arguments) + len(af.attacks) <= IMPORT_CHUNK:
            self.graph.write_tx(lambda tx: self._write_graph(tx, ns, af), name="argumentation.store_graph")
            return
        try:
            self._write_chunked(ns, af)
        except BaseException:
            self.repo.delete_arguments_batched(ns, DELETE_BATCH)
            raise

    def delete_namespace(self, ns: str) -> None:
        """Delete the plain arguments of ``ns`` (batched; Claim/Proposal nodes are left alone)."""
        self.repo.delete_arguments_batched(_check_ns(ns), DELETE_BATCH)

    def enlist(self, ns: str, ids: Sequence[str]) -> list[str]:
        """Make existing Claim/Proposal nodes (by id) arguments of ``ns`` (one transaction).

        A node belongs to one namespace at a time (enlisting moves it).

        Raises:
            NotFoundError: an id names no Claim in this space and no Proposal (nothing written).
        """
        _check_ns(ns)
        wanted = list(dict.fromkeys(ids))

        def work(tx: Tx) -> list[str]:
            found = self.repo.enlist(tx, ns, wanted)
            missing = sorted(set(wanted) - set(found))
            if missing:
                raise NotFoundError(f"no Claim or Proposal in space {self.space!r}: {listed(missing, 'unknown id(s)')}")
            return found

        return self.graph.write_tx(work, name="argumentation.enlist")

    def add_attacks(self, ns: str, attacks: Iterable[Attack | Sequence[str]]) -> int:
        """Add ``ATTACKS {reason, by}`` edges between arguments of ``ns`` (one transaction).

        Raises:
            ValidationError: an attack names an argument that is not in ``ns`` (nothing written).
        """
        _check_ns(ns)
        items = [a if isinstance(a, Attack) else Attack(attacker=a[0], target=a[1]) for a in attacks]

        def work(tx: Tx) -> int:
            names = set(self.repo.export(ns, tx)[0])
            unknown = sorted({n for a in items for n in (a.attacker, a.target)} - names)
            if unknown:
                raise ValidationError(f"attacks in namespace {ns!r} name {listed(unknown, 'unknown argument(s)')}")
            return self.repo.merge_attacks(tx, ns, items)

        return self.graph.write_tx(work, name="argumentation.add_attacks")

    def clear_namespace(self, ns: str) -> None:
        """Delete the plain arguments of ``ns`` and release its Claim/Proposal nodes."""
        _check_ns(ns)
        self.repo.delete_arguments_batched(ns, DELETE_BATCH)
        self.repo.release_nodes(ns)

    # -- grounded semantics ------------------------------------------------------------------
    def ground(self, ns: str) -> GroundedResult:
        """Compute the grounded labelling of ``ns`` in Neo4j, write it to ``label``/``wave``, return it.

        Raises:
            NotFoundError: the namespace has no arguments.
        """
        return self._ground(ns, profile=False)[0]

    def profile_ground(self, ns: str) -> tuple[GroundedResult, dict[str, int]]:
        """Like :meth:`ground`, under ``PROFILE``: also the db hits of each step."""
        return self._ground(ns, profile=True)

    def ground_framework(self, name: str) -> GroundedResult:
        """:meth:`ground` on a stored framework (FrameworkNotFound if there is none; LimitExceeded,
        before anything is written, if the server's heap cannot hold its solve)."""
        fw = self.framework(name)
        self._check_solvable(fw.arguments)
        return self.ground(fw.ns)

    def labels(self, ns: str) -> GroundedResult:
        """The stored labelling of ``ns`` (as left by the last :meth:`ground`).

        Raises:
            NotFoundError: no arguments; ValidationError: not (completely) labelled yet.
        """
        row = self.repo.labels(_check_ns(ns))
        if not row["arguments"]:
            raise NotFoundError(f"no arguments in namespace {ns!r} of space {self.space!r}")
        if row["unlabelled"]:
            raise ValidationError(f"namespace {ns!r} has {row['unlabelled']} unlabelled argument(s): run ground first")
        return _result(ns, row)

    def explain_label(self, ns: str, name: str) -> LabelExplanation:
        """Why ``name`` has its stored grounded label (see :class:`LabelExplanation`).

        Raises:
            NotFoundError: no such argument; ValidationError: the namespace was not solved.
        """
        row = self.repo.explain(_check_ns(ns), name)
        if row is None:
            raise NotFoundError(f"no argument {name!r} in namespace {ns!r} of space {self.space!r}")
        if row["label"] is None:
            raise ValidationError(f"argument {name!r} has no label yet: run ground on {ns!r} first")
        return explain_row(ns, row)

    def solve(self, source: str | Path | AttackGraph, *, format: str | None = None) -> GroundedResult:
        """Solve a file (or in-memory graph) in Neo4j: store it in a scratch namespace, ground it,
        read the result, delete the namespace."""
        return self.solve_explained(source, (), format=format)[0]

    def solve_explained(
        self, source: str | Path | AttackGraph, explain: Sequence[str] = (), *, format: str | None = None
    ) -> tuple[GroundedResult, list[LabelExplanation]]:
        """:meth:`solve`, plus the explanation of each argument named in ``explain``.

        Raises:
            FormatError: malformed file; ValidationError: ``explain`` names an unknown argument
                (checked before anything is written).
        """
        af = source if isinstance(source, AttackGraph) else iccma.read_framework(source, _format(format), self.limits)
        if not af.arguments:
            raise ValidationError("empty framework: no arguments")
        self._check_solvable(len(af.arguments))
        known = set(af.arguments)
        unknown = [a for a in explain if a not in known]
        if unknown:
            raise ValidationError(f"--explain names {listed(unknown, 'unknown argument(s)')}")
        ns = SCRATCH_PREFIX + new_id()
        try:
            self.store_graph(ns, af)
            result = self.ground(ns)
            explanations = [self.explain_label(ns, a) for a in dict.fromkeys(explain)]
            return result, explanations
        finally:
            self.repo.delete_arguments_batched(ns, DELETE_BATCH)

    def explain_framework(self, name: str, argument: str) -> LabelExplanation:
        """:meth:`explain_label` for a stored framework, grounding it first if it was never solved."""
        ns = self.framework(name).ns
        if self.repo.explain(ns, argument) is None:
            raise NotFoundError(f"no argument {argument!r} in framework {name!r}")
        try:
            return self.explain_label(ns, argument)
        except ValidationError:
            self.ground(ns)
            return self.explain_label(ns, argument)

    # -- internals ---------------------------------------------------------------------------
    def _write_graph(self, tx: Tx, ns: str, af: AttackGraph) -> None:
        self._remember_size(ns, len(af.arguments), len(af.attacks))  # no ground_small attempt if large
        self.repo.create_arguments(tx, ns, af.arguments)
        if af.attacks:
            self.repo.create_attacks(tx, ns, af.attacks)

    def _write_chunked(self, ns: str, af: AttackGraph) -> None:
        self._remember_size(ns, len(af.arguments), len(af.attacks))
        for names in _chunks(af.arguments, IMPORT_CHUNK):
            self.graph.write_tx(
                functools.partial(self.repo.create_arguments, ns=ns, names=names), name="argumentation.import_chunk"
            )
        for pairs in _chunks(af.attacks, IMPORT_CHUNK):
            self.graph.write_tx(
                functools.partial(self.repo.create_attacks, ns=ns, pairs=pairs), name="argumentation.import_chunk"
            )

    def _discard(self, name: str, ns: str) -> None:
        self.repo.set_framework_status(name, "deleting")
        self.repo.delete_arguments_batched(ns, DELETE_BATCH)
        self.repo.delete_framework_node(name)

    def _ground(self, ns: str, *, profile: bool) -> tuple[GroundedResult, dict[str, int]]:
        _check_ns(ns)
        started = time.perf_counter()
        if not profile and SMALL_MAX > 0 and ns not in self._large:
            # a small namespace: the one statement is the whole transaction, sent with its BEGIN
            # (execute_query); a larger one returns no row, writes nothing and is remembered
            row = self.repo.ground_small_alone(ns, SMALL_MAX, SMALL_MAX_ATTACKS)
            if row:
                res, hits = _small_result(ns, row), {"init": 0, "waves": 0, "finish": 0, "attacks": int(row["attacks"])}
                res.seconds = time.perf_counter() - started
                return res, hits
            self._remember_size(ns, SMALL_MAX + 1, 0)

        result, hits = self.graph.write_tx(
            lambda tx: self._ground_in(tx, ns, profile=profile), name="argumentation.ground"
        )
        result.seconds = time.perf_counter() - started
        return result, hits

    def ground_tx(self, tx: Tx, ns: str) -> GroundedResult:
        """:meth:`ground` inside the caller's write transaction (e.g. the argumentation conflict
        strategy decides a write with the labels of the conflict it is part of)."""
        return self._ground_in(tx, _check_ns(ns), profile=False)[0]

    def _ground_in(self, tx: Tx, ns: str, *, profile: bool) -> tuple[GroundedResult, dict[str, int]]:
        hits = {"init": 0, "waves": 0, "finish": 0}
        if SMALL_MAX > 0 and ns not in self._large:
            # one statement does it all for a small namespace (no working state, no wave loop
            # in the graph); a larger one returns no row and is remembered as large
            labels, hits["init"] = self.repo.ground_small(tx, ns, SMALL_MAX, SMALL_MAX_ATTACKS, profile=profile)
            if labels:
                hits["attacks"] = int(labels["attacks"])
                return _small_result(ns, labels), hits
        labels, hits["init"] = self.repo.start_grounded(tx, ns, FIRST_BATCH, profile=profile)
        if not labels["arguments"]:
            raise NotFoundError(f"no arguments in namespace {ns!r} of space {self.space!r}")
        self._remember_size(ns, int(labels["arguments"]), int(labels["attacks"]))
        attacks = int(labels["attacks"])
        # the first statement runs two batches: waves 1..8 and 8 waves from the next non-empty one
        trips, pending, size, iterations = 1, bool(labels["pending"]), FIRST_BATCH, 2 * FIRST_BATCH
        next_wave = labels["next_wave"]
        size = min(max(size, NEXT_BATCH // 2), MAX_BATCH)
        while pending:
            # the next batch starts at the next non-empty wave: after a chain jump that can be
            # far ahead (the waves in between have nothing to do)
            first, size = int(next_wave), min(size * 2, MAX_BATCH)
            row, h = self.repo.propagate_waves(tx, ns, first, first + size - 1, profile=profile)
            hits["waves"] += h
            trips += 1
            iterations += size
            pending, next_wave = bool(row["pending"]), row["next_wave"]
            if not pending:  # the last batch wrote the labels (its finish) and returned them
                labels = {**row, "waves": row["waves_labelled"]}
        res = _result(ns, labels)
        res.round_trips = trips
        res.wave_iterations = iterations
        hits["attacks"] = attacks
        return res, hits

    def _remember_size(self, ns: str, arguments: int, attacks: int) -> None:
        if arguments <= SMALL_MAX and attacks <= SMALL_MAX_ATTACKS:
            self._large.pop(ns, None)
            return
        self._large[ns] = None
        while len(self._large) > LARGE_MEMO:
            self._large.pop(next(iter(self._large), ns), None)


def _format(format: str | None) -> str | None:
    if format is None:
        return None
    if format not in iccma.FORMATS:
        raise ValidationError(f"unknown framework format {format!r} (known: {', '.join(iccma.FORMATS)})")
    return format


def _result(ns: str, row: dict[str, Any]) -> GroundedResult:
    return GroundedResult.model_validate(
        {
            "ns": ns,
            "in": sorted(row["in_names"]),
            "out": sorted(row["out_names"]),
            "undec": sorted(row["undec_names"]),
            "waves": int(row["waves"]),
            "arguments": int(row["arguments"]),
        }
    )


def _small_result(ns: str, row: dict[str, Any]) -> GroundedResult:
    """The result of ``ground_small``: one statement; its waves evaluated up to the first that
    labelled nothing IN."""
    res = _result(ns, row)
    res.round_trips, res.wave_iterations = 1, res.waves + 1
    return res


# -- module-level API for other services ------------------------------------------------------


def ground(graph: Graph, space: str, ns: str) -> GroundedResult:
    """Grounded labelling of namespace ``ns`` of ``space``, computed in Neo4j (see module doc)."""
    return ArgumentationService(graph, space).ground(ns)


def explain_label(graph: Graph, space: str, ns: str, name: str) -> LabelExplanation:
    """Why argument ``name`` of ``ns`` has its stored grounded label."""
    return ArgumentationService(graph, space).explain_label(ns, name)
