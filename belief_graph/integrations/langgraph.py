"""A LangGraph ``BaseStore`` over one belief_graph memory space: LangGraph's long-term memory kept
as beliefs, with their versions, conflict policy, disputes and history (docs/integrations.md).

    store = BeliefGraphStore(bg, agent="agent:planner")        # bound to bg's space
    graph = builder.compile(store=store)

**Namespaces and keys.** The store is bound to the space of the client it is given and owns the fact
keys under one prefix (``prefix``, default ``lg``). An item ``(namespace, key)`` is the fact key
``prefix.<label>.<label>...<key>``: ``("users", "alice", "prefs")`` + ``"theme"`` is
``lg.users.alice.prefs.theme``. A fact key's segments hold letters, digits, ``_`` and ``-`` and
begin with one of the first three (``models.KEY_RE``), so every other character of a label or a key
is written as ``-`` and two hex digits per UTF-8 byte (``"a b"`` -> ``a-20b``, ``"x-y"`` -> ``x-2dy``,
``"."`` -> ``-2e``); a segment that would be empty or begin with ``-`` is marked by a leading
``_--``, which no other segment has (``-`` is always followed by two hex digits). The mapping is
one to one (:func:`encode_label`, :func:`decode_label`). A fact key has at most 256 characters.

**Values.** A claim's value is a scalar, so an item's ``dict`` is stored as its JSON (keys sorted:
the same dict is the same value, a ``NOOP``), at most 20,000 characters. The claim's text, which is
embedded for semantic search, is the text at the item's index fields (``put(..., index=[...])``, else
the store's ``fields``), else the dict's top-level strings, one per line, else the JSON.
``index=False`` is accepted, but the item is embedded all the same: every claim is.

**Operations.** ``put`` is :meth:`BeliefGraph.assert_claim` by the store's agent (versions,
the key's conflict strategy, disputes: a put that the policy parks as disputed leaves the current
belief, and the dispute is in ``bg.conflicts.disputes()``). ``put(value=None)`` / ``delete`` retract
the current belief (:meth:`BeliefGraph.retract`, one audit): the item is gone for ``get`` and
``search`` and the fact's history keeps it. ``get`` is the current belief (``created_at``: the fact's
first version, ``updated_at``: the current one). ``search`` with a query is ``recall`` under the
namespace prefix (score: recall's); without one, the items under the prefix, most recently updated
first. ``filter`` is applied to the decoded values as LangGraph's ``InMemoryStore`` does (equality,
nested dicts, ``$eq $ne $gt $gte $lt $lte``); with a filter and a query, recall is asked for ten
times the items wanted (at most 1000) and the filter keeps what matches among them.
``list_namespaces`` reads the distinct key paths in Cypher (``store.list_namespaces``), then matches
prefix/suffix (``*`` wildcards), depth, offset and limit on the decoded tuples.

A batch runs its operations in order (a ``get`` after a ``put`` in one batch sees it); each write is
its own transaction. All operations are checked before the first runs: bad input raises and writes
nothing. TTL is not supported (``supports_ttl`` is ``False``; a ``ttl`` raises
``NotImplementedError``, as LangGraph's own ``put`` does).

**Async.** ``abatch`` runs the batch in a worker thread (``asyncio.to_thread``); given an async
client that offers ``await client.call(fn, *args)`` (``fn`` receiving its bridged ``BeliefGraph``),
the store runs the batch through that instead, and only ``abatch`` is available.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ..errors import ValidationError
from ..facade import BeliefGraph
from ..limits import MAX_CLAIM_TEXT, MAX_QUERY_TEXT, check_name, check_text
from ..models import KEY_RE, ClaimInput
from ..repositories.store import StoredItem, StoreRepository
from ..services.beliefs import claim_input

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        get_text_at_path,
        tokenize_path,
        validate_op_namespace,
    )
except ImportError as exc:  # pragma: no cover - exercised by the wheel without the extra
    raise ImportError(
        "belief_graph.integrations.langgraph needs LangGraph: pip install 'belief-graph[langgraph]'"
    ) from exc

__all__ = ["BeliefGraphStore", "StoreNamespaceError", "decode_label", "encode_label"]

MAX_KEY = 256
"""Characters in a fact key (``ClaimInput``)."""
DELETE_REASON = "deleted through the LangGraph store"
_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_HEX = frozenset("0123456789abcdef")
_MARK = "_--"
_OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")
T = TypeVar("T")


class StoreNamespaceError(ValidationError, InvalidNamespaceError):
    """A namespace LangGraph refuses (an empty label, a ``.`` or a NUL in one) in an operation given
    to ``batch``/``abatch`` directly: belief_graph's ``ValidationError`` and LangGraph's
    ``InvalidNamespaceError`` both catch it."""


class AsyncCaller(Protocol):
    """An async client that runs a sync callable against its bridged ``BeliefGraph``."""

    def call(self, fn: Callable[..., T], /, *args: Any) -> Awaitable[T]: ...


# -- namespaces and keys -------------------------------------------------------------------------
def encode_label(label: str) -> str:
    """One namespace label or item key as one fact-key segment (the module docstring says how)."""
    if not isinstance(label, str):
        raise ValidationError(f"namespace labels and keys are strings, got {type(label).__name__}")
    out: list[str] = []
    for ch in label:
        if ch in _PLAIN:
            out.append(ch)
            continue
        try:
            data = ch.encode("utf-8")
        except UnicodeEncodeError:
            raise ValidationError(f"{label[:40]!r} holds a lone surrogate (not valid Unicode)") from None
        out.extend(f"-{b:02x}" for b in data)
    seg = "".join(out)
    return _MARK + seg if not seg or seg[0] == "-" else seg


def decode_label(segment: str) -> str:
    """The label or key :func:`encode_label` made ``segment`` from (``ValueError`` for any other)."""
    body = segment[len(_MARK) :] if segment.startswith(_MARK) else segment
    data, i = bytearray(), 0
    while i < len(body):
        ch = body[i]
        if ch == "-":
            pair = body[i + 1 : i + 3]
            if len(pair) != 2 or not set(pair) <= _HEX:
                raise ValueError(f"{segment!r} is not a segment the store wrote")
            data.append(int(pair, 16))
            i += 3
        elif ch in _PLAIN:
            data.extend(ch.encode())
            i += 1
        else:
            raise ValueError(f"{segment!r} is not a segment the store wrote")
    try:
        label = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{segment!r} is not a segment the store wrote") from None
    if encode_label(label) != segment:  # one segment per label: no other spelling is read
        raise ValueError(f"{segment!r} is not a segment the store wrote")
    return label


# -- values ------------------------------------------------------------------------------------
def _as_json(value: Mapping[str, Any]) -> str:
    if not isinstance(value, Mapping):
        raise ValidationError(f"a store value is a dict, got {type(value).__name__}")
    try:
        text = json.dumps(dict(value), sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"a store value must be JSON (string keys, no NaN): {exc}") from None
    if len(text) > MAX_CLAIM_TEXT:
        raise ValidationError(f"a store value is at most {MAX_CLAIM_TEXT:,} characters as JSON, got {len(text):,}")
    return text


def _text_of(value: Mapping[str, Any], fields: Sequence[str] | None, as_json: str) -> str:
    """What is embedded: the text at ``fields``, else the top-level strings, else the JSON."""
    if fields:
        parts = [t for f in fields for t in get_text_at_path(value, tokenize_path(f))]
    else:
        parts = [v for v in value.values() if isinstance(v, str)]
    text = "\n".join(p for p in parts if p.strip())
    return text[:MAX_CLAIM_TEXT] if text.strip() else as_json


def _decoded(value: Any) -> dict[str, Any]:
    """An item's value from a claim's: the JSON object the store wrote, else ``{"value": value}``."""
    if isinstance(value, str):
        try:
            got = json.loads(value)
        except ValueError:
            got = None
        if isinstance(got, dict):
            return got
    return {"value": value}


def _matches(item: Any, wanted: Any) -> bool:
    """``InMemoryStore``'s filter: equality, nested dicts and lists, comparison operators."""
    if isinstance(wanted, dict):
        if any(str(k).startswith("$") for k in wanted):
            return all(_compare(item, op, arg) for op, arg in wanted.items())
        return isinstance(item, dict) and all(_matches(item.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(item, list | tuple)
            and len(item) == len(wanted)
            and all(_matches(i, w) for i, w in zip(item, wanted, strict=True))
        )
    return bool(item == wanted)


def _compare(item: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(item == arg)
    if op == "$ne":
        return bool(item != arg)
    try:
        a, b = float(item), float(arg)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]


def _check_filter(flt: Mapping[str, Any] | None) -> None:
    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for k, sub in v.items():
                if isinstance(k, str) and k.startswith("$") and k not in _OPERATORS:
                    raise ValidationError(f"unknown filter operator {k!r}: use one of {', '.join(_OPERATORS)}")
                walk(sub)

    if flt is not None and not isinstance(flt, Mapping):
        raise ValidationError(f"a search filter is a dict, got {type(flt).__name__}")
    walk(dict(flt or {}))


def _namespace_matches(cond: MatchCondition, ns: tuple[str, ...]) -> bool:
    path = tuple(cond.path)
    if len(ns) < len(path):
        return False
    pairs = (
        zip(ns, path, strict=False) if cond.match_type == "prefix" else zip(reversed(ns), reversed(path), strict=False)
    )
    return all(p == "*" or n == p for n, p in pairs)


# -- the store -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Planned:
    """One operation, checked and translated before the batch runs."""

    op: Op
    fact_key: str = ""
    prefix: str = ""
    claim: ClaimInput | None = None
    """A put's claim, validated (``None``: a delete)."""


class BeliefGraphStore(BaseStore):
    """LangGraph's ``BaseStore`` over the memory space of ``bg`` (the module docstring says how).

    Args:
        bg: a :class:`BeliefGraph`, or an async client with ``await bg.call(fn, *args)``.
        agent: who the store's puts and deletes are by (policies, authority and disputes see it).
        prefix: the fact keys the store owns: ``prefix.<namespace>.<key>`` (a dotted key).
        fields: the value fields embedded for search when a put names none (LangGraph's paths:
            ``"memory"``, ``"meta.title"``, ``"notes[*].text"``); default: the top-level strings.
    """

    supports_ttl = False

    def __init__(
        self,
        bg: BeliefGraph | AsyncCaller,
        *,
        agent: str = "agent:langgraph",
        prefix: str = "lg",
        fields: Sequence[str] | None = None,
    ) -> None:
        if isinstance(bg, BeliefGraph):
            self._bg: BeliefGraph | None = bg
            self._caller: AsyncCaller | None = None
        elif callable(getattr(bg, "call", None)):
            self._bg, self._caller = None, bg
        else:
            raise ValidationError(f"BeliefGraphStore needs a BeliefGraph or an async client, got {type(bg).__name__}")
        self.agent = str(check_name(agent, "agent"))
        if not isinstance(prefix, str) or len(prefix) > 128 or not KEY_RE.match(prefix):
            raise ValidationError(f"the store's prefix is a dotted key such as 'lg' or 'app.memory', got {prefix!r}")
        self.prefix = prefix
        if fields is not None and (isinstance(fields, str) or not all(isinstance(f, str) and f for f in fields)):
            raise ValidationError("fields is a list of value paths such as ['memory', 'meta.title']")
        self.fields = list(fields) if fields is not None else None

    # -- the mapping ---------------------------------------------------------------------------
    def fact_key(self, namespace: tuple[str, ...], key: str) -> str:
        """The fact key of the item ``(namespace, key)``."""
        if not isinstance(namespace, tuple) or not namespace:
            raise ValidationError("an item's namespace is a non-empty tuple of labels")
        full = ".".join([self.prefix, *(encode_label(label) for label in namespace), encode_label(key)])
        if len(full) > MAX_KEY:
            raise ValidationError(
                f"namespace {namespace!r} and key {key[:40]!r} make a fact key of {len(full)} characters "
                f"(at most {MAX_KEY}, escapes included)"
            )
        return full

    def _under(self, labels: Sequence[str]) -> str:
        """The fact-key prefix of a namespace prefix (``lg.users.``)."""
        return ".".join([self.prefix, *(encode_label(label) for label in labels)]) + "."

    def _item_of(self, stored: StoredItem, *, score: float | None = None, search: bool = False) -> Item | None:
        """The item of a fact the store wrote (``None`` for another fact key under the prefix)."""
        parts = stored.key[len(self.prefix) + 1 :].split(".")
        try:
            ns, key = tuple(decode_label(p) for p in parts[:-1]), decode_label(parts[-1])
        except ValueError:
            return None
        if not ns:
            return None
        fields: dict[str, Any] = {
            "namespace": ns,
            "key": key,
            "value": _decoded(stored.value),
            "created_at": stored.created_at,
            "updated_at": stored.updated_at,
        }
        return SearchItem(**fields, score=score) if search else Item(**fields)

    # -- BaseStore -------------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order (the module docstring); nothing runs when one of them is malformed."""
        if self._bg is None:
            raise ValidationError("this store was built on an async client: use its async methods (abatch, ainvoke)")
        return self._run(self._bg, self._plan(list(ops)))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread, or through the async client's ``call``."""
        planned = self._plan(list(ops))
        if self._caller is not None:
            return await self._caller.call(self._run, planned)
        assert self._bg is not None
        return await asyncio.to_thread(self._run, self._bg, planned)

    # -- checking ----------------------------------------------------------------------------------
    def _plan(self, ops: list[Op]) -> list[_Planned]:
        planned = []
        for op in ops:
            try:
                validate_op_namespace(op)
            except InvalidNamespaceError as exc:
                raise StoreNamespaceError(str(exc)) from None
            planned.append(self._plan_one(op))
        return planned

    def _plan_one(self, op: Op) -> _Planned:
        if isinstance(op, GetOp):
            return _Planned(op, fact_key=self.fact_key(op.namespace, op.key))
        if isinstance(op, PutOp):
            if op.ttl is not None:
                raise NotImplementedError("TTL is not supported by BeliefGraphStore: beliefs expire by retraction")
            key = self.fact_key(op.namespace, op.key)
            if op.value is None:
                return _Planned(op, fact_key=key)
            if op.index not in (False, None) and not (
                isinstance(op.index, list) and all(isinstance(f, str) and f for f in op.index)
            ):
                raise ValidationError("index is False, None or a list of value paths such as ['memory']")
            as_json = _as_json(op.value)
            fields = op.index if isinstance(op.index, list) and op.index else self.fields
            text = _text_of(op.value, fields, as_json)
            return _Planned(op, fact_key=key, claim=claim_input(key=key, value=as_json, text=text, agent=self.agent))
        if isinstance(op, SearchOp):
            _check_window(op.limit, op.offset)
            _check_filter(op.filter)
            if op.query is not None:
                check_text(op.query, "a search query", MAX_QUERY_TEXT)
            return _Planned(op, prefix=self._under(op.namespace_prefix))
        if isinstance(op, ListNamespacesOp):
            _check_window(op.limit, op.offset)
            if op.max_depth is not None and (isinstance(op.max_depth, bool) or op.max_depth < 1):
                raise ValidationError("max_depth is a positive number of labels")
            for cond in op.match_conditions or ():
                if cond.match_type not in ("prefix", "suffix"):
                    raise ValidationError(f"a match condition is 'prefix' or 'suffix', got {cond.match_type!r}")
            return _Planned(op)
        raise ValidationError(f"unknown store operation {type(op).__name__}")

    # -- running -----------------------------------------------------------------------------------
    def _run(self, bg: BeliefGraph, planned: list[_Planned]) -> list[Result]:
        repo = StoreRepository(bg.graph, bg.space)
        results: list[Result] = []
        for p in planned:
            op = p.op
            if isinstance(op, GetOp):
                got = repo.items([p.fact_key]).get(p.fact_key)
                results.append(self._item_of(got) if got is not None else None)
            elif isinstance(op, PutOp):
                self._put(bg, p)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(bg, repo, op, p.prefix))
            else:
                assert isinstance(op, ListNamespacesOp)
                results.append(self._namespaces(repo, op))
        return results

    def _put(self, bg: BeliefGraph, p: _Planned) -> None:
        if p.claim is not None:
            bg.beliefs.assert_claim(p.claim)
            return
        current = bg.belief(p.fact_key)
        if current is not None:
            bg.retract(current.id, DELETE_REASON, agent=self.agent)

    def _search(self, bg: BeliefGraph, repo: StoreRepository, op: SearchOp, prefix: str) -> list[SearchItem]:
        want = op.offset + op.limit
        if want == 0:
            return []
        if op.query is None:
            if not op.filter:
                return self._search_items(repo.under(prefix, op.offset, op.limit), {})
            rows = [r for r in repo.under(prefix, 0, 2**31 - 1) if _matches(_decoded(r.value), op.filter)]
            return self._search_items(rows[op.offset : want], {})
        k = min(1000, want if not op.filter else max(10 * want, 100))
        hits = bg.recall(op.query, k=k, key_prefix=prefix)
        order: dict[str, float] = {}
        for h in hits:
            if h.claim.key is not None and h.claim.key not in order:
                order[h.claim.key] = h.score
        found = repo.items(list(order))
        kept = [found[key] for key in order if key in found]
        if op.filter:
            kept = [r for r in kept if _matches(_decoded(r.value), op.filter)]
        return self._search_items(kept[op.offset : want], order)

    def _search_items(self, rows: list[StoredItem], scores: dict[str, float]) -> list[SearchItem]:
        items = [self._item_of(r, score=scores.get(r.key), search=True) for r in rows]
        return [i for i in items if isinstance(i, SearchItem)]

    def _namespaces(self, repo: StoreRepository, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conds = list(op.match_conditions or ())
        lead: list[str] = []  # the literal labels a prefix condition starts with: read in Cypher
        for cond in conds:
            if cond.match_type == "prefix":
                for label in cond.path:
                    if label == "*":
                        break
                    lead.append(label)
                break
        found: set[tuple[str, ...]] = set()
        for path in repo.paths(self._under(lead)):
            try:
                ns = (*lead, *(decode_label(seg) for seg in path))
            except ValueError:
                continue  # a fact key under the prefix that the store did not write
            if ns and all(_namespace_matches(c, ns) for c in conds):
                found.add(ns[: op.max_depth] if op.max_depth is not None else ns)
        return sorted(found)[op.offset : op.offset + op.limit]


def _check_window(limit: int, offset: int) -> None:
    for name, v in (("limit", limit), ("offset", offset)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValidationError(f"{name} is a non-negative integer, got {v!r}")
    if limit > 10_000:
        raise ValidationError("limit must be at most 10000")
