"""ICCMA file formats for Dung frameworks: read, validate, write; ICCMA-style output of an extension.

Formats (chosen by file extension, else sniffed from the first meaningful line):

``apx`` (ASPARTIX)
    facts ``arg(a).`` and ``att(a,b).``, any number per line, ``%`` comments. Every attack
    endpoint must be declared with ``arg(...)`` somewhere in the file.
``tgf`` (Trivial Graph Format, ICCMA 2015-2019)
    one argument per line (first token; the rest of the line is a label), a line ``#``, then
    ``attacker target`` pairs.
``af`` (ICCMA 2023, extensions ``.af``/``.i23``)
    a header ``p af <n>`` then ``i j`` attack lines with 1 <= i, j <= n; ``#`` comments.
    Arguments are the numbers 1..n.

Malformed input raises :class:`~belief_graph.errors.FormatError` with the path, the 1-based line
and what was expected. Input above the size limits (:class:`~belief_graph.settings.LimitSettings`:
``BELIEF_GRAPH_LIMITS__AF_MAX_ARGUMENTS`` 200,000, ``__AF_MAX_ATTACKS`` 2,000,000,
``__AF_MAX_FILE_BYTES`` 64 MiB) raises :class:`~belief_graph.errors.LimitExceeded` as soon as it
is seen: a file's size before it is read, a ``p af N`` header before any argument is made, and
arguments and attacks while they are counted, so a 26-byte ``p af 100000000000000000000`` costs
nothing. Duplicate arguments, attacks naming unknown arguments and empty
frameworks are errors; duplicate attack lines are merged (the attack relation is a set) and
counted in :attr:`AttackGraph.duplicate_attacks`. Nothing here touches the database: a file is
validated completely before any import writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Final, Literal

from ..errors import FormatError, LimitExceeded, ValidationError, listed, shown
from ..limits import check_argument_names
from ..models.argumentation import AttackGraph
from ..settings import LimitSettings

__all__ = [
    "FORMATS",
    "Format",
    "detect_format",
    "format_extension",
    "parse",
    "parse_af",
    "parse_apx",
    "parse_tgf",
    "read_framework",
    "write",
    "write_af",
    "write_apx",
    "write_tgf",
]

Format = Literal["apx", "tgf", "af"]
FORMATS: Final[tuple[Format, ...]] = ("apx", "tgf", "af")
_EXTENSIONS: Final[dict[str, Format]] = {".apx": "apx", ".tgf": "tgf", ".af": "af", ".i23": "af"}

_NAME = r"[^\s,()]+"
_FACT = re.compile(rf"\s*(?:arg\(\s*({_NAME})\s*\)|att\(\s*({_NAME})\s*,\s*({_NAME})\s*\))\s*\.\s*")
_APX_EXPECTED = "'arg(<name>).' or 'att(<name>,<name>).'"


def detect_format(text: str, path: str | Path | None = None) -> Format:
    """The format of ``text``: from the file extension when known, else from its content.

    Raises:
        FormatError: neither the extension nor the first meaningful line says.
    """
    if path is not None:
        fmt = _EXTENSIONS.get(Path(path).suffix.lower())
        if fmt is not None:
            return fmt
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("p ") or line == "p":
            return "af"
        if line.startswith("#") and line != "#":
            continue  # an ICCMA 2023 comment
        if line.startswith(("arg(", "att(")):
            return "apx"
        return "tgf"
    raise FormatError(
        "empty framework: the file has no arguments",
        _str(path),
        None,
        "an .apx, .tgf or .af (p af <n>) framework",
    )


_SETTING = "BELIEF_GRAPH_LIMITS__AF_MAX_"


def _limits(limits: LimitSettings | None) -> LimitSettings:
    return limits if limits is not None else LimitSettings()


def read_framework(
    path: str | Path, format: Format | str | None = None, limits: LimitSettings | None = None
) -> AttackGraph:
    """Read and validate a framework file (UTF-8).

    Raises:
        FormatError: unreadable, not UTF-8, or malformed (with line and expectation).
        LimitExceeded: the file, its arguments or its attacks are above ``limits``.
    """
    lim = _limits(limits)
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > lim.af_max_file_bytes:
            raise LimitExceeded(
                "framework file size (bytes)", size, lim.af_max_file_bytes, _SETTING + "FILE_BYTES", str(p)
            )
        with open(p, "rb") as fh:
            data = fh.read(lim.af_max_file_bytes + 1)  # a file that grew since stat() is still bounded
    except OSError as exc:
        raise FormatError(f"cannot read file: {exc.strerror or exc}", str(p)) from exc
    if len(data) > lim.af_max_file_bytes:
        raise LimitExceeded("framework file size (bytes)", None, lim.af_max_file_bytes, _SETTING + "FILE_BYTES", str(p))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FormatError("not UTF-8 text", str(p), line, "UTF-8") from exc
    return parse(text, format or detect_format(text, p), path=str(p), limits=lim)


def parse(text: str, format: Format | str, path: str | None = None, limits: LimitSettings | None = None) -> AttackGraph:
    """Parse ``text`` in ``format`` (``apx``, ``tgf`` or ``af``).

    Raises:
        FormatError: malformed input; ValidationError: unknown format name; LimitExceeded: above
            ``limits`` (default :class:`LimitSettings`).
    """
    lim = _limits(limits)
    if len(text) > lim.af_max_file_bytes:
        raise LimitExceeded(
            "framework text size (characters)", len(text), lim.af_max_file_bytes, _SETTING + "FILE_BYTES", path
        )
    if format == "apx":
        return parse_apx(text, path, lim)
    if format == "tgf":
        return parse_tgf(text, path, lim)
    if format == "af":
        return parse_af(text, path, lim)
    raise ValidationError(f"unknown framework format {shown(format)} (known: {', '.join(FORMATS)})")


class _Builder:
    """Collects arguments and attacks with the line each came from; validates at the end."""

    def __init__(self, path: str | None, fmt: Format, limits: LimitSettings | None = None) -> None:
        self.path = path
        self.fmt = fmt
        self.limits = _limits(limits)
        self.args: dict[str, int] = {}  # name -> line
        self.attacks: dict[tuple[str, str], int] = {}  # pair -> first line
        self.dupes = 0

    def arg(self, name: str, line: int, expected: str) -> None:
        first = self.args.get(name)
        if first is not None:
            raise FormatError(
                f"duplicate argument {shown(name)} (first declared on line {first})", self.path, line, expected
            )
        check_argument_names([name], f"{self.path}:{line}" if self.path else f"line {line}")
        if len(self.args) >= self.limits.af_max_arguments:
            raise LimitExceeded(
                f"arguments (line {line})", None, self.limits.af_max_arguments, _SETTING + "ARGUMENTS", self.path
            )
        self.args[name] = line

    def att(self, x: str, y: str, line: int) -> None:
        if (x, y) in self.attacks:
            self.dupes += 1
        else:
            if len(self.attacks) >= self.limits.af_max_attacks:
                raise LimitExceeded(
                    f"attacks (line {line})", None, self.limits.af_max_attacks, _SETTING + "ATTACKS", self.path
                )
            self.attacks[(x, y)] = line

    def build(self, declared_expected: str, empty_expected: str) -> AttackGraph:
        for (x, y), line in self.attacks.items():
            for end in (x, y):
                if end not in self.args:
                    raise FormatError(
                        f"attack ({listed([x, y])}) names unknown argument {shown(end)}",
                        self.path,
                        line,
                        declared_expected,
                    )
        if not self.args:
            raise FormatError("empty framework: no arguments", self.path, None, empty_expected)
        return AttackGraph(
            tuple(self.args), tuple(self.attacks), format=self.fmt, source=self.path, duplicate_attacks=self.dupes
        )


def parse_apx(text: str, path: str | None = None, limits: LimitSettings | None = None) -> AttackGraph:
    """ASPARTIX facts: ``arg(a).`` and ``att(a,b).``; ``%`` starts a comment line."""
    b = _Builder(path, "apx", limits)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("%", 1)[0].strip()
        if not line:
            continue
        pos = 0
        while pos < len(line):
            m = _FACT.match(line, pos)
            if m is None or m.end() == pos:
                raise FormatError(f"cannot parse {line[pos : pos + 40]!r}", path, number, _APX_EXPECTED)
            if m.group(1) is not None:
                b.arg(m.group(1), number, "each argument declared once")
            else:
                b.att(m.group(2), m.group(3), number)
            pos = m.end()
    return b.build("an argument declared with 'arg(<name>).'", "at least one 'arg(<name>).' fact")


def parse_tgf(text: str, path: str | None = None, limits: LimitSettings | None = None) -> AttackGraph:
    """Trivial Graph Format: argument lines, a ``#`` line, then ``attacker target`` lines."""
    b = _Builder(path, "tgf", limits)
    in_attacks = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line == "#":
            if in_attacks:
                raise FormatError("a second '#' separator", path, number, "'<attacker> <target>'")
            in_attacks = True
            continue
        parts = line.split()
        if not in_attacks:
            b.arg(parts[0], number, "each argument on one line, once")
            continue
        if len(parts) != 2:
            raise FormatError(
                f"attack line {line[:40]!r} has {len(parts)} field(s)", path, number, "'<attacker> <target>'"
            )
        b.att(parts[0], parts[1], number)
    if not in_attacks:
        if not b.args:
            raise FormatError("empty framework: no arguments", path, None, "argument lines, '#', attack lines")
        raise FormatError("no '#' line", path, None, "a line '#' between the arguments and the attacks")
    return b.build("an argument listed before the '#' line", "at least one argument line before '#'")


def _number(s: str) -> bool:
    return s.isascii() and s.isdigit()


def parse_af(text: str, path: str | None = None, limits: LimitSettings | None = None) -> AttackGraph:
    """ICCMA 2023: ``p af <n>`` then ``i j`` lines (1-based ids); ``#`` comment lines."""
    lim = _limits(limits)
    n: int | None = None
    attacks: dict[tuple[str, str], int] = {}
    dupes = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if n is None:
            if len(parts) != 3 or parts[:2] != ["p", "af"] or not _number(parts[2]):
                raise FormatError(f"bad header {line[:40]!r}", path, number, "'p af <number of arguments>'")
            if len(parts[2].lstrip("0")) > len(str(lim.af_max_arguments)) or int(parts[2]) > lim.af_max_arguments:
                shown = int(parts[2]) if len(parts[2]) <= 30 else None
                raise LimitExceeded(
                    f"arguments declared by 'p af' (line {number})",
                    shown,
                    lim.af_max_arguments,
                    _SETTING + "ARGUMENTS",
                    path,
                )
            n = int(parts[2])
            if n == 0:
                raise FormatError("empty framework: p af 0", path, number, "at least one argument")
            continue
        if parts[:1] == ["p"]:
            raise FormatError("a second 'p' header", path, number, "'<attacker> <target>'")
        if len(parts) != 2 or not (_number(parts[0]) and _number(parts[1])):
            raise FormatError(f"bad attack line {line[:40]!r}", path, number, "'<attacker> <target>' as two numbers")
        for part in parts:
            if len(part.lstrip("0")) > len(str(n)) or not 1 <= int(part) <= n:
                unknown = str(int(part)) if len(part) <= 30 else part[:20] + "..."
                raise FormatError(f"attack names unknown argument {unknown}", path, number, f"argument ids 1..{n}")
        pair = (str(int(parts[0])), str(int(parts[1])))
        if pair in attacks:
            dupes += 1
        else:
            if len(attacks) >= lim.af_max_attacks:
                raise LimitExceeded(f"attacks (line {number})", None, lim.af_max_attacks, _SETTING + "ATTACKS", path)
            attacks[pair] = number
    if n is None:
        raise FormatError("empty framework: no 'p af' header", path, None, "'p af <number of arguments>'")
    return AttackGraph(
        tuple(str(i) for i in range(1, n + 1)), tuple(attacks), format="af", source=path, duplicate_attacks=dupes
    )


# -- writing -------------------------------------------------------------------------------------


def _check_writable(graph: AttackGraph, fmt: Format) -> None:
    bad = next((a for a in graph.arguments if not re.fullmatch(_NAME, a)), None)
    if bad is not None:
        raise ValidationError(f"argument name {shown(bad)} cannot be written as {fmt} (whitespace, ',' or parentheses)")


def write_apx(graph: AttackGraph) -> str:
    """ASPARTIX text: arguments in graph order, then attacks."""
    _check_writable(graph, "apx")
    lines = [f"arg({a})." for a in graph.arguments] + [f"att({x},{y})." for x, y in graph.attacks]
    return "\n".join(lines) + "\n"


def write_tgf(graph: AttackGraph) -> str:
    """TGF text: arguments, ``#``, attacks."""
    _check_writable(graph, "tgf")
    return "\n".join([*graph.arguments, "#", *(f"{x} {y}" for x, y in graph.attacks)]) + "\n"


def write_af(graph: AttackGraph) -> str:
    """ICCMA 2023 text; the argument names must be exactly ``1..n``.

    Raises:
        ValidationError: other names (export as apx or tgf instead).
    """
    n = len(graph.arguments)
    if sorted(graph.arguments, key=lambda s: (len(s), s)) != [str(i) for i in range(1, n + 1)]:
        raise ValidationError("the af format needs arguments named 1..n; export as apx or tgf instead")
    pairs = sorted(graph.attacks, key=lambda p: (int(p[0]), int(p[1])))
    return "\n".join([f"p af {n}", *(f"{x} {y}" for x, y in pairs)]) + "\n"


def write(graph: AttackGraph, format: Format | str) -> str:
    """Write ``graph`` in ``format``."""
    if format == "apx":
        return write_apx(graph)
    if format == "tgf":
        return write_tgf(graph)
    if format == "af":
        return write_af(graph)
    raise ValidationError(f"unknown framework format {shown(format)} (known: {', '.join(FORMATS)})")


def format_extension(names: Iterable[str], style: Literal["iccma19", "iccma23"] = "iccma19") -> str:
    """An extension the way ICCMA solvers print it.

    ``iccma19`` (ICCMA 2015-2019, SE-GR): ``[a1,a2]``; ``iccma23``: ``w a1 a2``.
    Names are sorted by code point (as the corpus ``.GR`` files are).
    """
    ordered = sorted(names)
    if style == "iccma23":
        return " ".join(["w", *ordered])
    return "[" + ",".join(ordered) + "]"


def _str(path: str | Path | None) -> str | None:
    return None if path is None else str(path)
