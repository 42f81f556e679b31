"""Size limits of argumentation input: a typed LimitExceeded as soon as a limit is passed, never a
MemoryError or a silent 10^6-argument import (no database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from belief_graph.argumentation import iccma
from belief_graph.errors import FormatError, LimitExceeded, ValidationError
from belief_graph.settings import LimitSettings, load_settings

SMALL = LimitSettings(af_max_arguments=5, af_max_attacks=3, af_max_file_bytes=200)


@pytest.mark.parametrize(
    "text",
    ["p af 100000000000000000000\n", "p af 1000000\n", "p af " + "9" * 5000 + "\n", "p af 200001\n"],
    ids=["26-byte-1e20", "13-byte-1e6", "5000-digit", "one-above-default"],
)
def test_af_header_above_the_limit_is_refused_before_anything_is_built(text: str) -> None:
    with pytest.raises(LimitExceeded) as info:
        iccma.parse(text, "af")
    assert info.value.setting == "BELIEF_GRAPH_LIMITS__AF_MAX_ARGUMENTS" and info.value.limit == 200_000
    assert "BELIEF_GRAPH_LIMITS__AF_MAX_ARGUMENTS" in str(info.value)


def test_af_at_the_limit_is_accepted() -> None:
    af = iccma.parse("p af 5\n1 2\n", "af", limits=SMALL)
    assert len(af.arguments) == 5


@pytest.mark.parametrize(
    "fmt, text, what",
    [
        ("apx", "".join(f"arg(a{i})." for i in range(6)), "arguments"),
        ("tgf", "\n".join(f"a{i}" for i in range(6)) + "\n#\n", "arguments"),
        ("apx", "arg(a).arg(b).att(a,b).att(b,a).att(a,a).att(b,b).", "attacks"),
        ("tgf", "a\nb\n#\na b\nb a\na a\nb b\n", "attacks"),
        ("af", "p af 2\n1 2\n2 1\n1 1\n2 2\n", "attacks"),
        ("apx", "arg(a). " * 40, "size"),
    ],
)
def test_arguments_attacks_and_size_are_counted_while_parsing(fmt: str, text: str, what: str) -> None:
    with pytest.raises(LimitExceeded) as info:
        iccma.parse(text, fmt, limits=SMALL)
    assert what in str(info.value)


def test_duplicate_attacks_do_not_count_towards_the_limit() -> None:
    af = iccma.parse("p af 2\n1 2\n1 2\n1 2\n1 2\n", "af", limits=SMALL)
    assert af.duplicate_attacks == 3 and len(af.attacks) == 1


def test_file_size_is_checked_before_reading(tmp_path: Path) -> None:
    f = tmp_path / "big.apx"
    f.write_text("arg(a).\n" + "% padding\n" * 100)
    with pytest.raises(LimitExceeded, match="AF_MAX_FILE_BYTES") as info:
        iccma.read_framework(f, limits=SMALL)
    assert info.value.value == f.stat().st_size and info.value.path == str(f)
    assert isinstance(info.value, ValidationError)  # CLI exit 2


def test_non_ascii_digits_are_a_format_error_not_a_number() -> None:
    with pytest.raises(FormatError):
        iccma.parse("p af \u0661\u0662\n", "af")
    with pytest.raises(FormatError):
        iccma.parse("p af 3\n\u0661 2\n", "af")


def test_limits_are_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELIEF_GRAPH_LIMITS__AF_MAX_ARGUMENTS", "7")
    monkeypatch.setenv("BELIEF_GRAPH_LIMITS__AF_MAX_FILE_BYTES", "1000")
    s = load_settings()
    assert s.limits.af_max_arguments == 7 and s.limits.af_max_file_bytes == 1000
    assert s.limits.af_max_attacks == 2_000_000
