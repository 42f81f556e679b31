"""The code examples of README.md and docs/**/*.md, read from the Markdown (shared by the unit
check of the markers and the integration test that runs them).

A fenced block tagged ``python`` is a Python example; ``bash``, ``shell``, ``sh`` and ``console``
are shell examples (in ``console`` the lines starting ``$ `` are the commands, the rest is their
output). Every example runs in tests/integration/test_docs.py unless the line right before its
fence (blank lines between are allowed) is a marker with its reason::

    <!-- no-run: starts a server on the default port -->

A Python line may say what it gives: ``print(r.op)  # -> UPDATE`` (the printed line) or
``bg.belief(k).value  # -> 'macron'`` (the value's ``repr``); a second ``  # `` starts a plain
comment. :func:`with_expectations` turns those lines into checks.

A block without a tag, or tagged ``text``, is not an example (output, a synopsis, a layout);
:func:`looks_like_code` catches an untagged block that is code all the same.

Files are found by walking the repository, never from a list, so pages that move are still read.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PYTHON = "python"
SHELL = "shell"
KINDS = {"python": PYTHON, "py": PYTHON, "bash": SHELL, "shell": SHELL, "sh": SHELL, "console": SHELL}

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+-]*)[^\n]*$")
_MARKER = re.compile(r"^\s*<!--\s*no-run:(?P<reason>.*?)-->\s*$")
# the first line of an untagged block that is an example all the same
_CODE_START = re.compile(
    r"^(\$ |belief-graph |python |pip |from belief_graph|import belief_graph|bg\.|with BeliefGraph)"
)


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    lang: str  # the tag as written ("" when untagged)
    code: str  # the block's text, the fence's indentation removed
    no_run: str | None  # the reason of a `<!-- no-run: ... -->` marker; "" when the marker gives none

    @property
    def kind(self) -> str | None:
        """``"python"``, ``"shell"`` or ``None`` (not an example)."""
        return KINDS.get(self.lang.lower())

    @property
    def where(self) -> str:
        try:
            return f"{self.path.relative_to(ROOT)}:{self.line}"
        except ValueError:
            return f"{self.path}:{self.line}"

    def commands(self) -> str:
        """The shell text to run: a ``console`` block's ``$ `` lines (and their ``\\`` continuations), else all of it."""
        if self.lang.lower() != "console":
            return self.code
        out: list[str] = []
        continuing = False
        for line in self.code.splitlines():
            if line.startswith("$ ") or continuing:
                text = line[2:] if line.startswith("$ ") and not continuing else line
                out.append(text)
                continuing = text.rstrip().endswith("\\")
        return "\n".join(out) + "\n"


def doc_files(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown page under docs/ (walked, so moved pages are found)."""
    files = [root / "README.md"] if (root / "README.md").exists() else []
    return files + sorted((root / "docs").rglob("*.md"))


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of one Markdown file, in order. An unclosed fence raises ``ValueError``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m["indent"], m["fence"], m["lang"]
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip().startswith(fence[0] * len(fence)) and set(lines[j].strip()) <= {fence[0]}
        ):
            j += 1
        if j == len(lines):
            raise ValueError(f"{path}:{i + 1}: a fence that is never closed")
        body = [ln[len(indent) :] if ln.startswith(indent) else ln.lstrip() for ln in lines[i + 1 : j]]
        out.append(Block(path, i + 1, lang, "\n".join(body) + "\n", _marker_before(lines, i)))
        i = j + 1
    return out


def _marker_before(lines: list[str], fence: int) -> str | None:
    k = fence - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    if k < 0:
        return None
    m = _MARKER.match(lines[k])
    return m["reason"].strip() if m else None


def looks_like_code(block: Block) -> bool:
    """An untagged block whose first line reads as a command or as Python (tag it, or ``text`` if it is not one)."""
    first = next((ln for ln in block.code.splitlines() if ln.strip()), "")
    return block.lang == "" and bool(_CODE_START.match(first))


def examples(root: Path = ROOT) -> list[Block]:
    """Every Python and shell example of the docs, marked or not."""
    return [b for f in doc_files(root) for b in blocks(f) if b.kind is not None]


_EXPECT = re.compile(r"^(?P<indent>\s*)(?P<stmt>\S.*?)\s+# -> (?P<expected>.*?)(?:\s+# .*)?$")


def with_expectations(code: str) -> str:
    """``code`` with each one-line statement ending ``# -> TEXT`` made a check (line numbers kept):
    ``print(ARGS)`` becomes ``__expect_print__(TEXT, ARGS)``, an expression ``EXPR`` becomes
    ``__expect__(TEXT, (EXPR))``; the caller's namespace defines both."""
    out = []
    for line in code.splitlines():
        m = _EXPECT.match(line)
        if m:
            try:
                node = ast.parse(m["stmt"]).body
            except SyntaxError:
                node = []
            if len(node) == 1 and isinstance(node[0], ast.Expr):
                value = node[0].value
                expected = repr(m["expected"].rstrip())
                if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "print":
                    line = f"{m['indent']}__expect_print__({expected}, {m['stmt'][len('print(') : -1]})"
                else:
                    line = f"{m['indent']}__expect__({expected}, ({m['stmt']}))"
        out.append(line)
    return "\n".join(out) + "\n"
