"""What crosses the model boundary for one job: inputs coerced to the job's input model, ids
shown to the model as short aliases and mapped back, and each raw answer validated into a verdict
(schema, the job's check, cut-off and empty answers)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError as PydanticValidationError

from ..errors import ValidationError
from .jobs import (
    JobSpec,
    job_spec,
)
from .protocol import RawResponse
from .usage import Outcome

_CLIP = 2000
"""A cut-off answer is sent back (and kept on the error) clipped to this many characters."""
_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n(.*)\n\s*```$", re.DOTALL)
_MAX_ERRORS = 12


@dataclass(frozen=True)
class _Verdict:
    outcome: Outcome
    output: BaseModel | None
    problem: str
    text: str | None
    parsed: BaseModel | None = None
    """A reply of the output schema whose content check failed (what ``keep_valid_items`` splits)."""


# Prefix of the aliases of the ids found under each input field (``turns`` -> t1, t2, ...).
_ALIAS_PREFIX = {
    "turns": "t",
    "items": "i",
    "candidates": "c",
    "observations": "o",
    "perspective": "p",
    "proposals": "r",
    "contenders": "c",
    "beliefs": "b",
    "evidence": "b",
}


class _Aliases:
    """Short, run-independent aliases for the ids in a prompt (``t1``, ``c2``, ``p1``).

    Ids are client-generated UUIDs: shown as-is they cost tokens, invite copying mistakes and
    make every prompt unique, so a recorded answer could never be replayed in another run. The
    prompt shows aliases in order of appearance; answers are validated against the aliased
    inputs (errors fed back name the aliases the model saw) and mapped back to real ids.
    """

    def __init__(self) -> None:
        self.to_alias: dict[str, str] = {}
        self.to_real: dict[str, str] = {}
        self._counts: dict[str, int] = {}

    def alias(self, real: str, prefix: str) -> str:
        a = self.to_alias.get(real)
        if a is None:
            n = self._counts.get(prefix, 0) + 1
            self._counts[prefix] = n
            a = f"{prefix}{n}"
            self.to_alias[real] = a
            self.to_real[a] = real
        return a

    def inputs(self, values: dict[str, Any]) -> dict[str, Any]:
        def walk(node: Any, prefix: str) -> Any:
            if isinstance(node, dict):
                out: dict[str, Any] = {}
                for k, v in node.items():
                    if k == "id" and isinstance(v, str):
                        out[k] = self.alias(v, prefix)
                    elif k == "perspective" and isinstance(v, str):  # a proposal's author
                        out[k] = self.alias(v, "p")
                    else:
                        out[k] = walk(v, _ALIAS_PREFIX.get(k, prefix))
                return out
            if isinstance(node, list):
                return [walk(v, prefix) for v in node]
            return node

        result: dict[str, Any] = walk(values, "x")
        return result

    def outputs(self, spec: JobSpec, output: BaseModel) -> BaseModel:
        if not spec.output_ids:
            return output

        def real(v: Any) -> Any:
            return self.to_real.get(v, v) if isinstance(v, str) else v

        def walk(node: Any) -> Any:
            if isinstance(node, dict):
                return {
                    k: ([real(x) for x in v] if isinstance(v, list) else real(v)) if k in spec.output_ids else walk(v)
                    for k, v in node.items()
                }
            if isinstance(node, list):
                return [walk(v) for v in node]
            return node

        return spec.output_model.model_validate(walk(output.model_dump(mode="json")))


def alias_map(job: str, inputs: BaseModel | Mapping[str, Any]) -> dict[str, str]:
    """Real id -> alias as the prompt of ``job`` on ``inputs`` shows them (one batch chunk)."""
    spec = job_spec(job)
    aliases = _Aliases()
    aliases.inputs(_coerce(spec, inputs).model_dump(mode="json"))
    return dict(aliases.to_alias)


def _coerce(spec: JobSpec, inputs: BaseModel | Mapping[str, Any]) -> BaseModel:
    """Validate ``inputs`` against the job's input model; ``ValidationError`` before any call."""
    try:
        if isinstance(inputs, spec.input_model):
            inp: BaseModel = inputs
        elif isinstance(inputs, BaseModel):
            inp = spec.input_model.model_validate(inputs.model_dump())
        else:
            inp = spec.input_model.model_validate(_plain(inputs))
    except PydanticValidationError as exc:
        raise ValidationError(f"invalid inputs for LLM job {spec.name!r}: {_format_errors(exc)}") from exc
    if spec.batch_field is not None:
        ids = [getattr(x, "id", None) for x in getattr(inp, spec.batch_field)]
        dup = sorted({i for i in ids if i is not None and ids.count(i) > 1})
        if dup:
            raise ValidationError(f"invalid inputs for LLM job {spec.name!r}: duplicate ids {dup}")
    return inp


def _plain(value: Any) -> Any:
    """Pydantic models anywhere inside a mapping/list become dicts (so nested views validate)."""
    if isinstance(value, BaseModel):
        return value.model_dump()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _format_errors(exc: PydanticValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False)[:_MAX_ERRORS]:
        loc = ".".join(str(p) for p in err["loc"]) or "(root)"
        parts.append(f"{loc}: {err['msg']}")
    more = exc.error_count() - _MAX_ERRORS
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _validate(spec: JobSpec, inp: BaseModel, raw: RawResponse, max_tokens: int | None = None) -> _Verdict:
    """Decode and validate one raw answer (never raises)."""
    text = raw.text
    if raw.finish_reason == "length":
        cap = f" of {max_tokens} tokens" if max_tokens else ""
        return _Verdict(
            "length",
            None,
            f"the answer was cut off at the length limit{cap} before it was "
            "complete: reply with a shorter JSON object (brief rationales and texts, no repetition).",
            _clip(text),
        )
    if raw.refusal:
        return _Verdict(
            "refusal",
            None,
            f"the model refused: {raw.refusal!r}. Answer with the JSON object; "
            "use empty lists or null where nothing applies.",
            text,
        )
    if raw.parsed is None and (text is None or not text.strip()):
        return _Verdict("empty", None, "the answer was empty: reply with one JSON object.", text)
    data: Any
    if text is not None and text.strip():
        body = text.strip()
        fenced = _FENCE.match(body)
        if fenced:
            body = fenced.group(1).strip()
        try:
            data = json.loads(body)
        except json.JSONDecodeError as exc:
            return _Verdict("invalid", None, f"malformed JSON: {exc}", text)
    else:
        data = dict(raw.parsed or {})
    if not isinstance(data, dict):
        return _Verdict("invalid", None, f"expected a JSON object, got {type(data).__name__}", text)
    try:
        output = spec.output_model.model_validate(data)
    except PydanticValidationError as exc:
        return _Verdict("invalid", None, f"schema violation: {_format_errors(exc)}", text)
    problems = spec.check(inp, output)
    if problems:
        return _Verdict("invalid", None, "invalid content: " + "; ".join(problems[:_MAX_ERRORS]), text, output)
    return _Verdict("ok", output, "", text)


def keep_valid_items(
    spec: JobSpec, inp: BaseModel, output: BaseModel
) -> tuple[BaseModel, list[tuple[BaseModel, list[str]]]] | None:
    """``output`` without the items of ``spec.output_field`` its check refuses, judged one by one,
    and those items with their problems; None when the job does not keep valid items or what is
    left still fails the check (a problem of no one item)."""
    field = spec.output_field
    if not spec.keeps_valid_items or field is None:
        return None
    kept: list[BaseModel] = []
    aside: list[tuple[BaseModel, list[str]]] = []
    for n, item in enumerate(getattr(output, field)):
        problems = spec.check(inp, output.model_copy(update={field: [item]}))
        if problems:
            aside.append((item, [re.sub(rf"^{re.escape(field)}\[0\]", f"{field}[{n}]", p) for p in problems]))
        else:
            kept.append(item)
    reduced = output.model_copy(update={field: kept})
    if spec.check(inp, reduced):
        return None
    return reduced, aside


def _clip(text: str | None) -> str | None:
    """The start of a cut-off answer: enough for the model to see what it wrote, without
    feeding a runaway repetition back in full."""
    if text is None or len(text) <= _CLIP:
        return text
    return text[:_CLIP] + " ...[cut off]"
