"""Prompt files: one per job in ``prompts/<job>.md``, loaded once, versioned, rendered strictly.

A prompt file is Markdown with a header in an HTML comment (invisible when rendered) and two
sections::

    <!--
    name: extract
    version: 1
    description: Extract self-contained facts from conversation turns.
    inputs: turns, known_keys
    -->
    ## system
    You extract facts ...
    {{output_schema}}
    ## user
    Turns:
    {{turns}}

``name`` must equal the file stem; ``version`` is recorded on everything the prompt produced
(provenance: ``extract@1``) — bump it whenever the wording changes. ``inputs`` declares the
placeholders; every declared input must be used and every ``{{placeholder}}`` declared, except
the reserved ``{{output_schema}}`` (the JSON schema of the job's output) and, in the repair
prompt, ``{{errors}}``. Values are inserted as-is when they are strings, else as indented JSON.

The folder ships in the wheel as ``belief_graph/_resources/prompts`` (hatch ``force-include``,
exactly like ``cypher/``); :func:`belief_graph.db.registry.resource_dir` finds it in a wheel or a
source checkout. :func:`load_prompts` fails fast with
:class:`~belief_graph.errors.FormatError` (path and line) on any malformed file.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ..errors import FormatError, ValidationError
from .protocol import ChatMessage

__all__ = ["REPAIR_PROMPT", "RESERVED", "Prompt", "get_prompts", "load_prompts", "render_value"]

REPAIR_PROMPT = "repair"
RESERVED = frozenset({"output_schema"})
_REQUIRED = ("name", "version", "description", "inputs")
_HEADER_LINE = re.compile(r"([a-z][a-z_]*)\s*:(.*)")
_SECTION = re.compile(r"^##\s+(system|user)\s*$")
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.\-]*")


@dataclass(frozen=True)
class Prompt:
    """One parsed prompt file."""

    name: str
    version: str
    description: str
    inputs: tuple[str, ...]
    system: str
    user: str
    path: str

    @property
    def ref(self) -> str:
        """``name@version``, the provenance string."""
        return f"{self.name}@{self.version}"

    def placeholders(self) -> set[str]:
        return set(_PLACEHOLDER.findall(self.system)) | set(_PLACEHOLDER.findall(self.user))

    def render(self, values: Mapping[str, Any]) -> tuple[ChatMessage, ...]:
        """The chat messages with every placeholder filled.

        Raises :class:`~belief_graph.errors.ValidationError` when a declared input is missing
        (an extra value is an error too: it would silently not reach the model).
        """
        allowed = set(self.inputs) | (RESERVED & self.placeholders())
        missing = sorted(allowed - set(values))
        extra = sorted(set(values) - allowed - RESERVED)
        if missing or extra:
            raise ValidationError(f"prompt {self.ref}: missing values {missing}, unexpected values {extra}")

        def fill(text: str) -> str:
            return _PLACEHOLDER.sub(lambda m: render_value(values[m.group(1)]), text)

        msgs = []
        if self.system:
            msgs.append(ChatMessage("system", fill(self.system)))
        msgs.append(ChatMessage("user", fill(self.user)))
        return tuple(msgs)


def render_value(value: Any) -> str:
    """How an input value appears in a prompt: strings as-is, anything else as indented JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)


def parse_prompt(text: str, path: str) -> Prompt:
    """Parse one prompt file (see the module docstring). ``path`` is used in error messages."""
    lines = text.splitlines()
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or lines[i].strip() != "<!--":
        raise FormatError("a prompt file starts with a '<!--' header", path, i + 1, "'<!--'")
    header: dict[str, str] = {}
    i += 1
    while i < len(lines) and lines[i].strip() != "-->":
        line = lines[i].strip()
        if line:
            m = _HEADER_LINE.fullmatch(line)
            if not m:
                raise FormatError(f"bad header line {line!r}", path, i + 1, "'key: value'")
            key = m.group(1)
            if key in header:
                raise FormatError(f"header key {key!r} given twice", path, i + 1)
            header[key] = m.group(2).strip()
        i += 1
    if i >= len(lines):
        raise FormatError("the header is not closed", path, i, "'-->'")
    header_end = i + 1
    for key in _REQUIRED:
        if key not in header:
            raise FormatError(f"header key {key!r} is missing", path, header_end, f"'{key}: ...'")
    unknown = sorted(set(header) - set(_REQUIRED))
    if unknown:
        raise FormatError(f"unknown header keys {unknown}", path, header_end, ", ".join(_REQUIRED))
    stem = Path(path).stem
    if header["name"] != stem:
        raise FormatError(f"name {header['name']!r} differs from the file name {stem!r}", path, 2)
    if not _VERSION.fullmatch(header["version"]):
        raise FormatError(f"bad version {header['version']!r}", path, None, "e.g. '1' or '2.1'")
    if not header["description"]:
        raise FormatError("description is empty", path)
    inputs = tuple(p.strip() for p in header["inputs"].split(",") if p.strip())

    sections: dict[str, list[str]] = {}
    current: str | None = None
    for n, line in enumerate(lines[header_end:], start=header_end + 1):
        m = _SECTION.match(line)
        if m:
            current = m.group(1)
            if current in sections:
                raise FormatError(f"section '## {current}' given twice", path, n)
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
        elif line.strip():
            raise FormatError("text before the first section", path, n, "'## system' or '## user'")
    if "user" not in sections:
        raise FormatError("no '## user' section", path, None, "'## user'")
    prompt = Prompt(
        name=header["name"],
        version=header["version"],
        description=header["description"],
        inputs=inputs,
        system="\n".join(sections.get("system", [])).strip(),
        user="\n".join(sections["user"]).strip(),
        path=path,
    )
    used = prompt.placeholders()
    undeclared = sorted(used - set(inputs) - RESERVED)
    if undeclared:
        raise FormatError(f"placeholders {undeclared} are not declared in 'inputs'", path)
    unused = sorted(set(inputs) - used)
    if unused:
        raise FormatError(f"inputs {unused} are declared but never used", path)
    return prompt


def load_prompts(directory: Path | Traversable | None = None) -> dict[str, Prompt]:
    """Load every ``*.md`` prompt of ``directory`` (default: the shipped ``prompts/`` folder)."""
    if directory is None:
        from ..db.registry import resource_dir

        directory = resource_dir("prompts")
    prompts: dict[str, Prompt] = {}
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if not entry.is_file() or not entry.name.endswith(".md") or entry.name.startswith((".", "_")):
            continue
        path = str(entry)
        p = parse_prompt(entry.read_text(encoding="utf-8"), path)
        prompts[p.name] = p
    return prompts


@functools.cache
def get_prompts() -> dict[str, Prompt]:
    """The shipped prompts, loaded once per process."""
    return load_prompts()
