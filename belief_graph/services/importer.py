"""Bulk import: many structured claims through the write path of ``assert_claim``, in batched
transactions, resumable (``bg.importer.import_items(items)``, ``bg.importer.import_jsonl(path)``,
``belief-graph memory import FILE.jsonl``; docs/import.md).

**Same policies.** Every claim goes through :meth:`ClaimWriter.write <belief_graph.services.writes.ClaimWriter.write>` inside the batch's
transaction, in input order: one current belief per fact, pass 1 and pass 2 with the key's
strategy, disputes, auto-resolution, derived keys refused, rule re-derivation and the currency of
conclusions. A later line sees what the earlier lines of its batch wrote. ``llm_judge`` keys get
their verdicts before the transaction as ``assert_claim`` does; a verdict that an earlier line of
the batch made stale commits the batch up to that line and decides again.

**Batches.** ``batch_size`` lines per write transaction; their embeddings are computed in one call
(:meth:`BeliefService.prepare_many`) before it, so no model call holds a lock.

**Progress in the graph.** An ``Import`` node per (space, name) holds ``done`` (lines committed)
and ``digest`` (a SHA-256 chain over those lines' bytes). Each batch transaction takes the node's
lock first and checks that ``done``/``digest`` are what this run expects, writes its claims, and
advances them last, so the progress commits with the claims or not at all. A rerun (same name)
skips the first ``done`` lines after checking their digest (a different source under the same name
is refused with :class:`ImportStateError`, nothing written) and continues: no line is written
twice, none is lost, whatever killed the earlier run. A second process running the same import at
the same time finds the progress moved under its lock and stops with :class:`ImportStateError`.

**Bad lines.** A line that is not a JSON object of claim fields, or that the write path refuses
(unknown evidence, another value type than the fact holds, a derived key, an unknown agent under
strict agents), is an :class:`ImportLineError` with its line number (``on_error="stop"``, the
default): nothing of its batch is written, the batches before it are, and a rerun after fixing the
line resumes at that batch. ``on_error="skip"`` leaves such lines out instead and records them on
the result and on the ``Import`` node (the first 100), counted as ``rejected``.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from ..db.driver import Tx
from ..errors import ImportLineError, ImportStateError, ValidationError, listed
from ..limits import check_limit
from ..models import ClaimInput, Strategy, WriteResult, new_id, utcnow
from ..models.imports import OPS, ImportInfo, ImportResult, RejectedLine
from ..policies import Decision, StaleVerdict
from ..repositories.imports import ImportRepository
from .beliefs import BeliefService
from .writes import value_type

__all__ = ["ImportService", "Progress", "Record", "item_records", "jsonl_records"]

Record = tuple[int, bytes, "Mapping[str, Any] | ClaimInput | None"]
"""``(line number, the line's bytes for the digest, the item when it is already parsed)``."""

Progress = Callable[[int, int], None]
"""``progress(lines committed in total, claims written by this run)`` after each batch."""

FIELDS = frozenset(ClaimInput.model_fields)
MAX_BATCH = 10_000
_STALE_RETRIES = 3


def jsonl_records(path: str | Path) -> Iterator[Record]:
    """The lines of a JSON Lines file (read as bytes: a line that is not UTF-8 is a bad line)."""
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            yield n, raw.rstrip(b"\r\n"), None


def item_records(items: Iterable[Mapping[str, Any] | ClaimInput]) -> Iterator[Record]:
    """Items of an iterable, numbered from 1; the digest is over their canonical JSON."""
    for n, item in enumerate(items, 1):
        if isinstance(item, ClaimInput):
            raw = item.model_dump_json().encode()
        elif isinstance(item, Mapping):
            raw = json.dumps(item, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8", "surrogatepass")
        else:
            raw = repr(item).encode("utf-8", "backslashreplace")
        yield n, raw, item


def _chain(digest: str, raw: bytes) -> str:
    return hashlib.sha256(digest.encode() + b"\n" + raw).hexdigest()


class _BadLine(Exception):
    pass


class _LineFailed(Exception):
    """The write path refused the item at ``index`` of the batch (the transaction is rolled back)."""

    def __init__(self, index: int, error: ValidationError) -> None:
        self.index = index
        self.error = error


class _StaleAt(Exception):
    def __init__(self, index: int) -> None:
        self.index = index


def _messages(exc: PydanticValidationError) -> str:
    """One message per field (a union such as ``value`` reports each of its types: said once here)."""
    out: dict[str, str] = {}
    for e in exc.errors():
        top = str(e["loc"][0]) if e["loc"] else "line"
        if top == "value":
            out[top] = "a fact value is a string, number or boolean"
        else:
            out.setdefault(top, e["msg"])
    return "; ".join(f"{k}: {v}" for k, v in out.items())


def parse_item(raw: bytes, item: Mapping[str, Any] | ClaimInput | None, agent: str | None) -> ClaimInput | None:
    """One line or item as a :class:`ClaimInput`; ``None`` for a blank line; :class:`_BadLine` otherwise."""
    if isinstance(item, ClaimInput):
        obj: Any = item
    elif item is None:
        try:
            text = raw.decode("utf-8").removeprefix("\ufeff")  # a byte order mark (editors write one on line 1)
        except UnicodeDecodeError as exc:
            raise _BadLine(f"not UTF-8 (byte {exc.start + 1})") from None
        if not text.strip():
            return None
        try:
            obj = json.loads(text)
        except ValueError as exc:
            raise _BadLine(f"not JSON: {getattr(exc, 'msg', exc)} (column {getattr(exc, 'colno', '?')})") from None
    else:
        obj = item
    if isinstance(obj, ClaimInput):
        data = obj
    else:
        if not isinstance(obj, Mapping):
            raise _BadLine(
                f"a line is a JSON object of claim fields ({', '.join(sorted(FIELDS))}), got {type(obj).__name__}"
            )
        unknown = sorted(str(k) for k in obj if k not in FIELDS)
        if unknown:
            raise _BadLine(f"unknown field(s) {listed(unknown)} (a claim has {', '.join(sorted(FIELDS))})")
        if obj.get("agent") is None:
            if agent is None:
                raise _BadLine("no agent: give 'agent' on the line or a default agent (--agent)")
            obj = {**obj, "agent": agent}
        try:
            data = ClaimInput.model_validate(dict(obj))
        except PydanticValidationError as exc:
            raise _BadLine(f"invalid claim: {_messages(exc)}") from None
        except ValidationError as exc:  # a field check of ours (a naive or future valid_from)
            raise _BadLine(f"invalid claim: {exc}") from None
    if data.key is not None and data.value is not None:
        try:
            value_type(data.value)
        except ValidationError as exc:
            raise _BadLine(str(exc)) from None
    return data


@dataclass
class _Run:
    """The state of one run: what is committed, what this run did."""

    name: str
    path: str | None
    done: int
    digest: str
    result: ImportResult
    progress: Progress | None
    rejected_pending: list[RejectedLine] = field(default_factory=list)


class ImportService:
    """Bulk import into one memory space (see the module docstring)."""

    def __init__(self, beliefs: BeliefService) -> None:
        self.beliefs = beliefs
        self.repo = ImportRepository(beliefs.graph, beliefs.space)

    # -- entry points ----------------------------------------------------------------------------
    def import_items(
        self, items: Iterable[Mapping[str, Any] | ClaimInput], *, name: str | None = None, **options: Any
    ) -> ImportResult:
        """Import an iterable of claim mappings (or ``ClaimInput``). Without ``name`` the import gets a
        new one (on the result); pass that name with the same items to resume it."""
        if isinstance(items, str | bytes | Mapping):
            raise ValidationError("import_claims takes an iterable of claims (mappings), not a single value")
        return self.run(item_records(items), name=name or f"import:{new_id()}", source=None, **options)

    def import_jsonl(self, path: str | Path, *, name: str | None = None, **options: Any) -> ImportResult:
        """Import a JSON Lines file, one claim per line; the default name ``file:<absolute path>``
        makes a rerun of the same file resume."""
        p = Path(path)
        if not p.is_file():
            raise ValidationError(f"no such file: {str(path)!r}")
        resolved = str(p.resolve())
        return self.run(jsonl_records(p), name=name or f"file:{resolved}", source=resolved, path=str(path), **options)

    def info(self, name: str) -> ImportInfo | None:
        return self.repo.get(name)

    def all(self, limit: int = 50) -> list[ImportInfo]:
        check_limit(limit, 10_000)
        return self.repo.all(limit)

    # -- the run ---------------------------------------------------------------------------------
    def run(
        self,
        records: Iterable[Record],
        *,
        name: str,
        source: str | None = None,
        path: str | None = None,
        agent: str | None = None,
        batch_size: int = 500,
        on_error: str = "stop",
        restart: bool = False,
        progress: Progress | None = None,
    ) -> ImportResult:
        if not isinstance(name, str) or not name.strip() or len(name) > 512:
            raise ValidationError("an import name is 1-512 characters")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or not 1 <= batch_size <= MAX_BATCH:
            raise ValidationError(f"batch_size must be between 1 and {MAX_BATCH}")
        if on_error not in ("stop", "skip"):
            raise ValidationError(
                "on_error is 'stop' (a bad line stops the import) or 'skip' (it is left out and recorded)"
            )
        if agent is not None and (not agent.strip() or len(agent) > 256):
            raise ValidationError("a default agent is 1-256 characters")
        t0 = time.perf_counter()
        info = self.repo.begin(name=name, source=source, at=utcnow().isoformat(), restart=restart)
        result = ImportResult(
            name=name, source=source, resumed_from=info.done, done=info.done, embedder=self.beliefs.embedder.name
        )
        run = _Run(name=name, path=path, done=info.done, digest=info.digest, result=result, progress=progress)
        it = iter(records)
        self._skip_committed(run, it)
        if progress is not None:
            progress(run.done, 0)
        batch: list[Record] = []
        for rec in it:
            batch.append(rec)
            if len(batch) >= batch_size:
                self._batch(run, batch, agent, on_error)
                batch = []
        if batch:
            self._batch(run, batch, agent, on_error)
        self._finish(run)
        result.done = run.done
        result.seconds = time.perf_counter() - t0
        return result

    def _skip_committed(self, run: _Run, it: Iterator[Record]) -> None:
        """Read past the lines earlier runs committed, checking that they are the same lines."""
        if run.done == 0:
            return
        digest, n = "", 0
        for _, raw, _ in it:
            n += 1
            digest = _chain(digest, raw)
            if n == run.done:
                break
        if n < run.done:
            raise ImportStateError(
                f"the source has {n} lines, fewer than were committed; name the import differently or restart it",
                import_name=run.name,
                done=run.done,
            )
        if digest != run.digest:
            raise ImportStateError(
                "the source differs from the lines already committed (their digest); "
                "name the import differently or restart it",
                import_name=run.name,
                done=run.done,
            )

    def _batch(self, run: _Run, records: list[Record], agent: str | None, on_error: str) -> None:
        digests: dict[int, str] = {}
        digest = run.digest
        items: list[tuple[int, ClaimInput]] = []
        rejected: list[RejectedLine] = []
        for line, raw, item in records:
            digest = _chain(digest, raw)
            digests[line] = digest
            try:
                data = parse_item(raw, item, agent)
            except _BadLine as exc:
                if on_error == "stop":
                    raise ImportLineError(
                        str(exc), line=line, import_name=run.name, committed=run.done, path=run.path
                    ) from None
                rejected.append(RejectedLine(line=line, error=str(exc)))
                continue
            if data is not None:
                items.append((line, data))
        t = time.perf_counter()
        prepared = self.beliefs.prepare_many([d for _, d in items])
        run.result.embed_seconds += time.perf_counter() - t
        pending = [(line, p) for (line, _), p in zip(items, prepared, strict=True)]
        end_line = records[-1][0]
        limit: int | None = None  # commit only pending[:limit] next (a stale verdict at limit)
        stale_tries = 0
        while True:
            cut = len(pending) if limit is None else limit
            chunk_end = end_line if cut == len(pending) else pending[cut][0] - 1
            chunk = pending[:cut]
            chunk_rejected = [r for r in rejected if r.line <= chunk_end]
            try:
                self._commit(run, chunk, self._verdicts(chunk), chunk_rejected, chunk_end, digests)
            except _LineFailed as failed:
                line = chunk[failed.index][0]
                if on_error == "stop":
                    raise ImportLineError(
                        str(failed.error), line=line, import_name=run.name, committed=run.done, path=run.path
                    ) from failed.error
                rejected = sorted([*rejected, RejectedLine(line=line, error=str(failed.error))], key=lambda r: r.line)
                del pending[failed.index]
                if limit is not None:
                    limit = limit - 1 or None
                continue
            except _StaleAt as stale:
                stale_tries += 1
                if stale_tries > _STALE_RETRIES:
                    raise ImportLineError(
                        "the belief of this line's key kept changing while it was being judged; run the import again",
                        line=chunk[stale.index][0],
                        import_name=run.name,
                        committed=run.done,
                        path=run.path,
                    ) from None
                if stale.index > 0:  # commit the lines before it, then judge it again after them
                    limit = stale.index
                continue
            pending = pending[cut:]
            rejected = [r for r in rejected if r.line > chunk_end]
            limit = None
            if chunk_end == end_line:
                return

    def _verdicts(self, pending: Sequence[tuple[int, dict[str, Any]]]) -> dict[str, Decision]:
        """The ``llm_judge`` verdicts the batch needs, taken before its transaction (as ``assert_claim``
        does); none when no key of the space is judged by a model."""
        b = self.beliefs
        if b.conflicts.prejudge is None or not pending:
            return {}
        if b.policy.default_strategy != Strategy.llm_judge.value and not any(
            r.strategy is Strategy.llm_judge for r in b.conflicts.policy_repo.policies()
        ):
            return {}
        verdicts: dict[str, Decision] = {}
        for _, p in pending:
            verdicts.update(b.conflicts.pre_verdicts(p["data"]))
        return verdicts

    def _commit(
        self,
        run: _Run,
        pending: Sequence[tuple[int, dict[str, Any]]],
        verdicts: dict[str, Decision],
        rejected: Sequence[RejectedLine],
        end_line: int,
        digests: dict[int, str],
    ) -> None:
        """One transaction: the import's lock and check, every claim in order, the progress last."""
        b = self.beliefs
        expected = (run.done, run.digest)
        end_digest = digests[end_line]

        def work(tx: Tx) -> list[WriteResult]:
            done, digest = self.repo.lock(tx, run.name)
            if (done, digest) != expected:
                raise ImportStateError(
                    f"another process committed up to line {done} while this run expected {expected[0]}; "
                    "run one process per import",
                    import_name=run.name,
                    done=done,
                )
            out: list[WriteResult] = []
            for index, (line, p) in enumerate(pending):
                try:
                    out.append(
                        b.writer.write(tx, p, props={"import_name": run.name, "import_line": line}, verdicts=verdicts)
                    )
                except StaleVerdict:
                    raise _StaleAt(index) from None
                except ValidationError as exc:
                    raise _LineFailed(index, exc) from None
            counts = _counts(out)
            counts["rejected"] = len(rejected)
            self.repo.advance(
                tx,
                name=run.name,
                done=end_line,
                digest=end_digest,
                counts=counts,
                errors=[f"line {r.line}: {r.error}" for r in rejected],
                at=utcnow().isoformat(),
                status="running",
                batch=1,
            )
            return out

        t = time.perf_counter()
        results = b.graph.write_tx(work, name="imports.batch")
        run.result.write_seconds += time.perf_counter() - t
        res = run.result
        for r in results:
            res.ops[r.op.value.lower()] += 1
            res.staled += len(r.staled)
            res.rederived += len(r.rederived)
        res.written = sum(n for op, n in res.ops.items() if op != "noop")
        res.rejected += list(rejected)
        res.lines += end_line - run.done
        res.batches += 1
        run.done, run.digest = end_line, end_digest
        if run.progress is not None:
            run.progress(run.done, sum(res.ops.values()))

    def _finish(self, run: _Run) -> None:
        """Mark the import complete (every line of this run's source is committed)."""
        expected = (run.done, run.digest)

        def work(tx: Tx) -> None:
            done, digest = self.repo.lock(tx, run.name)
            if (done, digest) != expected:
                raise ImportStateError(
                    f"another process committed up to line {done}; run one process per import",
                    import_name=run.name,
                    done=done,
                )
            self.repo.advance(
                tx,
                name=run.name,
                done=run.done,
                digest=run.digest,
                counts=_counts([]),
                errors=[],
                at=utcnow().isoformat(),
                status="complete",
                batch=0,
            )

        self.beliefs.graph.write_tx(work, name="imports.finish")


def _counts(results: Sequence[WriteResult]) -> dict[str, int]:
    counts = dict.fromkeys(OPS, 0) | {"rejected": 0, "staled": 0, "rederived": 0}
    for r in results:
        counts[r.op.value.lower()] += 1
        counts["staled"] += len(r.staled)
        counts["rederived"] += len(r.rederived)
    return counts
