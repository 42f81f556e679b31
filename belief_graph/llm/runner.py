"""The job runner: render a prompt, call the model, validate, repair, count, record provenance.

:class:`LLMClient` is the one place the engine talks to a chat model::

    client = LLMClient(model)                      # any ChatModel: OpenAI, replay, scripted
    r = client.extract([Turn(id="e1", agent="user:alice", text="I moved to Lisbon")])
    r.output.facts            # list[ExtractedFact], validated
    r.provenance.as_properties()   # {'llm_job': 'extract', 'llm_prompt': 'extract@1', ...}

    client.run_then("extract", inputs, write=lambda r: store(r.output))   # write only if valid

Per job call:

1. the inputs are validated against the job's input model (bad input: ``ValidationError``,
   no call made);
2. the job's prompt is rendered (``prompts/<job>.md``) with the inputs and the output schema;
3. the model answers; the raw text is decoded as strict JSON (one surrounding Markdown code
   fence is tolerated), validated by the output pydantic model and by the job's own checks
   (ids must come from the input, one answer per batch item, ...);
4. an invalid answer (malformed JSON, schema violation, failed check, refusal, empty answer) is
   sent back with the validation errors (``prompts/repair.md``) — at most ``repair_attempts``
   times; a provider timeout is retried within the same budget; then
   :class:`~belief_graph.errors.EncodingError` carries the last raw output and every error.
   ``LLMUnavailable`` (no model, HTTP failure after the client's own retries, no replay entry)
   propagates at once.

Every model call — retries and failures included — is recorded in the :class:`UsageMeter`.
Batch jobs larger than ``max_batch`` items are split into several calls and merged; an empty
batch makes no call. Nothing here writes to the graph: callers write only what a returned
:class:`JobResult` holds, so an error leaves the graph unchanged.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from ..errors import ConfigurationError, EncodingError, LLMError, ValidationError
from .jobs import (
    JOBS,
    Answer,
    BeliefView,
    ClaimView,
    Classifications,
    ClassifyItem,
    Contender,
    Critique,
    EncodeInput,
    Encoding,
    Extraction,
    HeldBelief,
    JobSpec,
    Judgement,
    KeyChoices,
    KeyItem,
    Observation,
    PerspectiveView,
    Proposal,
    ProposalView,
    Rederived,
    Revisits,
    Turn,
    job_spec,
)
from .prompts import REPAIR_PROMPT, Prompt, get_prompts
from .protocol import ChatMessage, ChatModel, ChatRequest, ModelTimeout, RawResponse, output_json_schema
from .usage import CallRecord, LLMUsage, Outcome, UsageMeter
from .validation import _Aliases, _coerce, _validate, alias_map, keep_valid_items

__all__ = ["JobResult", "LLMClient", "Provenance", "SetAside", "alias_map"]

OutputT = TypeVar("OutputT", bound=BaseModel)
R = TypeVar("R")


class Provenance(BaseModel):
    """Which prompt and model produced an output (record it on what you write)."""

    model_config = ConfigDict(frozen=True)

    job: str
    prompt: str
    prompt_version: str
    model: str
    calls: int
    prompt_hashes: tuple[str, ...] = ()

    @property
    def prompt_ref(self) -> str:
        return f"{self.prompt}@{self.prompt_version}"

    def as_properties(self) -> dict[str, str]:
        """Flat properties for a graph node (``llm_job``, ``llm_prompt``, ``llm_model``)."""
        return {"llm_job": self.job, "llm_prompt": self.prompt_ref, "llm_model": self.model}


@dataclass(frozen=True)
class JobResult(Generic[OutputT]):
    """A validated output and its provenance."""

    job: str
    output: OutputT
    provenance: Provenance
    set_aside: tuple[SetAside, ...] = ()
    """Items of a job that keeps valid items, left out of ``output`` after the last repair
    attempt because they alone failed its check (empty for a reply valid whole)."""


@dataclass(frozen=True)
class SetAside:
    """One item of a reply left out of the output: as the model wrote it (ids mapped back) and
    why the check refused it."""

    item: dict[str, Any]
    problems: tuple[str, ...]


class LLMClient:
    """Runs LLM jobs on one :class:`~belief_graph.llm.protocol.ChatModel` (see module docs).

    ``repair_attempts``: extra calls allowed after an invalid answer or a timeout (so at most
    ``1 + repair_attempts`` calls per job and batch chunk). ``max_batch``: items per call for
    batch jobs. ``meter``: where calls are counted (a fresh one by default).

    Limits per call come from each job's :class:`~belief_graph.llm.jobs.JobLimits` (sized by
    the call's items); ``max_tokens`` (job -> tokens) and ``timeouts`` (job -> seconds) override
    them per job, ``timeout`` overrides every job's timeout that ``timeouts`` does not name.
    """

    def __init__(
        self,
        model: ChatModel,
        *,
        prompts: Mapping[str, Prompt] | None = None,
        repair_attempts: int = 2,
        max_batch: int = 32,
        meter: UsageMeter | None = None,
        max_tokens: Mapping[str, int] | None = None,
        timeouts: Mapping[str, float] | None = None,
        timeout: float | None = None,
    ) -> None:
        if repair_attempts < 0:
            raise ConfigurationError("repair_attempts must be >= 0")
        if max_batch < 1:
            raise ConfigurationError("max_batch must be >= 1")
        for what, table in (("max_tokens", max_tokens or {}), ("timeouts", timeouts or {})):
            unknown = sorted(set(table) - set(JOBS))
            if unknown:
                raise ConfigurationError(f"{what}: unknown LLM job(s) {unknown} (one of {', '.join(JOBS)})")
            bad = sorted(k for k, v in table.items() if not v > 0)
            if bad:
                raise ConfigurationError(f"{what}: values for {bad} must be > 0")
        if timeout is not None and not timeout > 0:
            raise ConfigurationError("timeout must be > 0")
        self.max_tokens = dict(max_tokens or {})
        self.timeouts = dict(timeouts or {})
        self.timeout = timeout
        self.model = model
        self.prompts = dict(prompts) if prompts is not None else get_prompts()
        missing = sorted((set(JOBS) | {REPAIR_PROMPT}) - set(self.prompts))
        if missing:
            raise ConfigurationError(f"no prompt file for {missing} (expected prompts/<job>.md)")
        for name, spec in JOBS.items():
            declared = set(self.prompts[name].inputs)
            fields = set(spec.input_model.model_fields)
            if declared != fields:
                raise ConfigurationError(
                    f"prompt {self.prompts[name].path}: inputs {sorted(declared)} differ from the "
                    f"job's input fields {sorted(fields)}"
                )
        self.repair_attempts = repair_attempts
        self.max_batch = max_batch
        self.meter = meter if meter is not None else UsageMeter()

    # -- information -----------------------------------------------------------------------------
    @property
    def model_name(self) -> str:
        return self.model.name

    def describe(self) -> str:
        """One line saying which model answers (replay models say where their answers come from)."""
        desc = getattr(self.model, "description", None)
        return str(desc) if desc else self.model.name

    @property
    def is_replay(self) -> bool:
        return bool(getattr(self.model, "is_replay", False))

    def usage(self) -> LLMUsage:
        """Per-job call counts, tokens and latency so far (a snapshot)."""
        return self.meter.snapshot()

    def limits_table(self) -> dict[str, dict[str, float]]:
        """Per job: ``max_tokens`` and ``timeout`` of a call with no items and what each item adds
        (0 where a setting fixes the value), as they apply with this client's settings."""
        table: dict[str, dict[str, float]] = {}
        for job, spec in JOBS.items():
            lim = spec.limits
            row: dict[str, float] = {
                "max_tokens": lim.max_tokens,
                "max_tokens_per_item": lim.max_tokens_per_item,
                "timeout": lim.timeout,
                "timeout_per_item": lim.timeout_per_item,
            }
            if job in self.max_tokens:
                row.update(max_tokens=self.max_tokens[job], max_tokens_per_item=0)
            if job in self.timeouts or self.timeout is not None:
                row.update(timeout=self.timeouts.get(job, self.timeout or 0.0), timeout_per_item=0)
            table[job] = row
        return table

    def limits(self, job: str, items: int = 0) -> tuple[int, float]:
        """(max_tokens, timeout in seconds) of one call of ``job`` over ``items`` items: the
        job's own limits unless the client's settings override them."""
        spec = job_spec(job)
        tokens, seconds = spec.limits.for_items(items)
        if job in self.max_tokens:
            tokens = int(self.max_tokens[job])
        if job in self.timeouts:
            seconds = float(self.timeouts[job])
        elif self.timeout is not None:
            seconds = float(self.timeout)
        return tokens, seconds

    # -- generic ---------------------------------------------------------------------------------
    def run(
        self,
        job: str,
        inputs: BaseModel | Mapping[str, Any],
        *,
        check: Callable[[Any, Any], list[str]] | None = None,
        repair_attempts: int | None = None,
    ) -> JobResult[Any]:
        """Run ``job`` on ``inputs`` (its input model or a mapping of its fields).

        ``check`` replaces the job's own semantic check (a caller with a stricter one, e.g. the
        grounding check of ``answer()``, gets the same repair loop); ``repair_attempts``
        overrides the client's number of repair retries for this run.

        Returns a :class:`JobResult` with a validated output, or raises ``ValidationError``
        (bad inputs, before any call), ``EncodingError`` (still invalid after the repair
        retries) or ``LLMUnavailable``.
        """
        spec = job_spec(job)
        if check is not None:
            spec = dataclasses.replace(spec, check=check)
        if repair_attempts is not None and repair_attempts < 0:
            raise ValidationError("repair_attempts must be >= 0")
        inp = _coerce(spec, inputs)
        prompt = self.prompts[spec.name]
        if not spec.batched:
            out, hashes, calls, aside = self._call(spec, prompt, inp, repair_attempts)
            return self._result(spec, prompt, out, hashes, calls, aside)
        assert spec.batch_field is not None and spec.output_field is not None
        items = list(getattr(inp, spec.batch_field))
        merged: list[Any] = []
        all_hashes: list[str] = []
        all_aside: list[SetAside] = []
        total_calls = 0
        for start in range(0, len(items), self.max_batch):
            chunk = inp.model_copy(update={spec.batch_field: items[start : start + self.max_batch]})
            out, hashes, calls, aside = self._call(spec, prompt, chunk, repair_attempts)
            merged.extend(getattr(out, spec.output_field))
            all_hashes += hashes
            all_aside += aside
            total_calls += calls
        output = spec.output_model.model_validate({spec.output_field: merged})
        return self._result(spec, prompt, output, all_hashes, total_calls, all_aside)

    def run_then(self, job: str, inputs: BaseModel | Mapping[str, Any], write: Callable[[JobResult[Any]], R]) -> R:
        """Run ``job`` and pass the valid result to ``write``; ``write`` never sees an invalid
        output (on any error it is not called, so nothing is written)."""
        return write(self.run(job, inputs))

    # -- typed jobs ------------------------------------------------------------------------------
    def extract(
        self, turns: Sequence[Turn | Mapping[str, Any]], known_keys: Iterable[str] = ()
    ) -> JobResult[Extraction]:
        """Facts from conversation turns (one call per ``max_batch`` turns)."""
        return self.run("extract", {"turns": list(turns), "known_keys": list(known_keys)})

    def revisit(
        self, turns: Sequence[Turn | Mapping[str, Any]], beliefs: Sequence[HeldBelief | Mapping[str, Any]]
    ) -> JobResult[Revisits]:
        """Whether the latest of ``turns`` changes each held belief, and to what."""
        return self.run("revisit", {"turns": list(turns), "beliefs": list(beliefs)})

    def classify(self, items: Sequence[ClassifyItem | Mapping[str, Any]]) -> JobResult[Classifications]:
        """NOOP/UPDATE/REPLACE/ADD for each new claim against its candidate claims."""
        return self.run("classify", {"items": list(items)})

    def disambiguate(
        self, items: Sequence[KeyItem | Mapping[str, Any]], known_keys: Iterable[str] = ()
    ) -> JobResult[KeyChoices]:
        """Pick a known fact key (or coin a new one) for each statement."""
        return self.run("disambiguate", {"items": list(items), "known_keys": list(known_keys)})

    def encode(
        self,
        perspective: PerspectiveView | Mapping[str, Any],
        observations: Sequence[Observation | Mapping[str, Any]],
    ) -> JobResult[Encoding]:
        """Interpret all ``observations`` from one perspective (one call per ``max_batch``)."""
        return self.run("encode", {"perspective": perspective, "observations": list(observations)})

    def encode_many(
        self,
        perspectives: Sequence[PerspectiveView | Mapping[str, Any]],
        observations: Sequence[Observation | Mapping[str, Any]],
        *,
        workers: int = 1,
    ) -> dict[str, JobResult[Encoding]]:
        """Encode the same observations for several perspectives: one call per perspective
        (and batch chunk), never one per observation x perspective. ``workers > 1`` runs the
        perspectives concurrently. Keyed by perspective id. All inputs are validated first."""
        inputs = [
            _coerce(job_spec("encode"), {"perspective": p, "observations": list(observations)}) for p in perspectives
        ]
        ids = [i.perspective.id for i in inputs if isinstance(i, EncodeInput)]
        if len(set(ids)) != len(ids):
            raise ValidationError(f"perspective ids must be unique, got {ids}")
        if workers <= 1 or len(inputs) <= 1:
            results = [self.run("encode", i) for i in inputs]
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                results = list(pool.map(lambda i: self.run("encode", i), inputs))
        return dict(zip(ids, results, strict=True))

    def critique(
        self,
        perspective: PerspectiveView | Mapping[str, Any],
        question: str,
        proposals: Sequence[ProposalView | Mapping[str, Any]],
    ) -> JobResult[Critique]:
        """Attacks of one perspective on the other perspectives' proposals."""
        return self.run("critique", {"perspective": perspective, "question": question, "proposals": list(proposals)})

    def judge(
        self,
        question: str,
        contenders: Sequence[Contender | Mapping[str, Any]],
        evidence: Sequence[BeliefView | Mapping[str, Any]] = (),
    ) -> JobResult[Judgement]:
        """Pick the winner of a dispute (or ``None`` when undecidable), with a rationale."""
        return self.run("judge", {"question": question, "contenders": list(contenders), "evidence": list(evidence)})

    def propose(
        self,
        perspective: PerspectiveView | Mapping[str, Any],
        question: str,
        beliefs: Sequence[BeliefView | Mapping[str, Any]],
    ) -> JobResult[Proposal]:
        """A perspective's answer to a deliberation question, citing its beliefs."""
        return self.run("propose", {"perspective": perspective, "question": question, "beliefs": list(beliefs)})

    def answer(self, question: str, beliefs: Sequence[BeliefView | Mapping[str, Any]]) -> JobResult[Answer]:
        """A grounded answer from a working context (``'unknown'`` when nothing supports one)."""
        return self.run("answer", {"question": question, "beliefs": list(beliefs)})

    def rederive(
        self,
        conclusion: ClaimView | Mapping[str, Any],
        was_based_on: Sequence[BeliefView | Mapping[str, Any]],
        premises: Sequence[BeliefView | Mapping[str, Any]],
    ) -> JobResult[Rederived]:
        """Re-derive a stale conclusion from the current premises (or say it still follows, or nothing does)."""
        return self.run(
            "rederive", {"conclusion": conclusion, "was_based_on": list(was_based_on), "premises": list(premises)}
        )

    # -- internals -------------------------------------------------------------------------------
    def _result(
        self,
        spec: JobSpec,
        prompt: Prompt,
        output: BaseModel,
        hashes: list[str],
        calls: int,
        aside: Sequence[SetAside] = (),
    ) -> JobResult[Any]:
        prov = Provenance(
            job=spec.name,
            prompt=prompt.name,
            prompt_version=prompt.version,
            model=self.model.name,
            calls=calls,
            prompt_hashes=tuple(hashes),
        )
        return JobResult(spec.name, output, prov, tuple(aside))

    def _call(
        self, spec: JobSpec, prompt: Prompt, inp: BaseModel, repair_attempts: int | None = None
    ) -> tuple[BaseModel, list[str], int, list[SetAside]]:
        """One job call with repair retries. Returns (output, [first prompt hash], calls made,
        items set aside): a job that keeps valid items, still invalid after the last attempt only
        in some items, keeps the reply without them."""
        values = inp.model_dump(mode="json")
        items = len(values.get(spec.batch_field, [])) if spec.batch_field else 1
        max_tokens, timeout = self.limits(spec.name, spec.size(inp))
        aliases = _Aliases()
        shown = aliases.inputs(values)
        seen_inp = spec.input_model.model_validate(shown)  # what the model sees: checks use it
        schema_text = json.dumps(output_json_schema(spec.output_model), ensure_ascii=False)
        messages = list(prompt.render({**shown, "output_schema": schema_text}))
        repair = self.prompts[REPAIR_PROMPT]
        errors: list[str] = []
        last_text: str | None = None
        last_outcome: Outcome = "invalid"
        last_parsed: BaseModel | None = None
        first_hash = ""
        attempts = 1 + (self.repair_attempts if repair_attempts is None else repair_attempts)
        for attempt in range(1, attempts + 1):
            req = ChatRequest(
                job=spec.name,
                messages=tuple(messages),
                schema=spec.output_model,
                inputs=values,
                prompt=prompt.name,
                prompt_version=prompt.version,
                attempt=attempt,
                aliases=dict(aliases.to_alias),
                max_tokens=max_tokens,
                timeout=timeout,
            )
            if attempt == 1:
                first_hash = req.key(self.model.name)
            started = time.perf_counter()
            try:
                raw = self.model.invoke(req)
            except ModelTimeout as exc:
                self._record(spec, prompt, attempt, "timeout", started, items, None)
                errors.append(f"attempt {attempt}: timeout: {exc}")
                last_outcome = "timeout"
                last_parsed = None
                continue
            except LLMError:
                self._record(spec, prompt, attempt, "unavailable", started, items, None)
                raise
            verdict = _validate(spec, seen_inp, raw, max_tokens)
            self._record(spec, prompt, attempt, verdict.outcome, started, items, raw)
            if verdict.output is not None:
                return aliases.outputs(spec, verdict.output), [first_hash], attempt, []
            errors.append(f"attempt {attempt}: {verdict.outcome}: {verdict.problem}")
            last_text = verdict.text
            last_parsed = verdict.parsed
            last_outcome = verdict.outcome
            if attempt < attempts:
                messages.append(ChatMessage("assistant", verdict.text or raw.refusal or ""))
                messages.extend(repair.render({"errors": verdict.problem}))
        split = keep_valid_items(spec, seen_inp, last_parsed) if last_parsed is not None else None
        if split is not None:
            reduced, refused = split
            field = spec.output_field
            assert field is not None
            shown_aside = spec.output_model.model_validate(
                {field: [item.model_dump(mode="json") for item, _ in refused]}
            )
            real_aside = getattr(aliases.outputs(spec, shown_aside), field)
            aside = [
                SetAside(item.model_dump(mode="json"), tuple(problems))
                for item, (_, problems) in zip(real_aside, refused, strict=True)
            ]
            return aliases.outputs(spec, reduced), [first_hash], attempts, aside
        reason = errors[-1].split(": ", 1)[1] if errors else last_outcome
        raise EncodingError(spec.name, reason, raw=last_text, errors=errors, attempts=attempts)

    def _record(
        self,
        spec: JobSpec,
        prompt: Prompt,
        attempt: int,
        outcome: Outcome,
        started: float,
        items: int,
        raw: RawResponse | None,
    ) -> None:
        self.meter.record(
            CallRecord(
                job=spec.name,
                model=self.model.name,
                prompt=prompt.ref,
                attempt=attempt,
                outcome=outcome,
                seconds=time.perf_counter() - started,
                items=items,
                tokens_in=raw.tokens_in if raw is not None else None,
                tokens_out=raw.tokens_out if raw is not None else None,
            )
        )
