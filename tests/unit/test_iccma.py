"""ICCMA formats (apx, tgf, p af): parsing, typed errors with line numbers, writing, output style."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from belief_graph.argumentation import iccma
from belief_graph.errors import FormatError, ValidationError
from belief_graph.models.argumentation import AttackGraph

# The subset of the corpus vendored in tests/data/corpus; BELIEF_GRAPH_TEST_CORPUS=<folder holding
# argumentation/ and tms/> runs the same tests on the full corpus.
CORPUS = Path(os.environ.get("BELIEF_GRAPH_TEST_CORPUS") or Path(__file__).resolve().parents[1] / "data" / "corpus")
CORPUS = CORPUS / "argumentation"


def test_apx_parses_facts_comments_and_several_facts_per_line() -> None:
    af = iccma.parse_apx("% a comment\narg(a1).\narg(a2). arg(a3).\natt(a1,a2).\n att( a2 , a3 ) .\n\natt(a3,a3).")
    assert af.arguments == ("a1", "a2", "a3")
    assert af.attacks == (("a1", "a2"), ("a2", "a3"), ("a3", "a3"))
    assert af.format == "apx"


def test_apx_attack_before_declaration_is_fine() -> None:
    af = iccma.parse_apx("att(a,b).\narg(a).\narg(b).\n")
    assert af.attacks == (("a", "b"),)


def test_tgf_labels_after_the_name_are_ignored_and_no_trailing_newline() -> None:
    af = iccma.parse_tgf("1 (first)\n2\n3\n#\n1 2\n2 3")
    assert af.arguments == ("1", "2", "3")
    assert af.attacks == (("1", "2"), ("2", "3"))


def test_af_format() -> None:
    af = iccma.parse_af("# ICCMA 2023\np af 3\n1 2\n# comment\n2 3\n3 3\n")
    assert af.arguments == ("1", "2", "3")
    assert af.attacks == (("1", "2"), ("2", "3"), ("3", "3"))


def test_duplicate_attacks_are_merged_and_counted() -> None:
    af = iccma.parse_apx("arg(a).\narg(b).\natt(a,b).\natt(a,b).\n")
    assert af.attacks == (("a", "b"),)
    assert af.duplicate_attacks == 1


@pytest.mark.parametrize(
    ("name", "text", "fmt"),
    [
        ("x.apx", "1\n#\n", "apx"),  # the extension wins
        ("x.TGF", "arg(a).", "tgf"),
        ("x.af", "", "af"),
        ("x.i23", "", "af"),
        ("x.txt", "\n% c\narg(a).\n", "apx"),
        ("x.txt", "# comment\np af 2\n1 2\n", "af"),
        ("x.txt", "a\nb\n#\na b\n", "tgf"),
        (None, "#\n", "tgf"),
    ],
)
def test_detect_format(name: str | None, text: str, fmt: str) -> None:
    assert iccma.detect_format(text, name) == fmt


# -- errors: FormatError(path, line, expected) -------------------------------------------------------


def _error(fmt: str, text: str) -> FormatError:
    with pytest.raises(FormatError) as info:
        iccma.parse(text, fmt, path=f"bad.{fmt}")
    assert isinstance(info.value, ValidationError)
    assert info.value.path == f"bad.{fmt}"
    return info.value


@pytest.mark.parametrize(
    ("fmt", "text", "line", "message", "expected"),
    [
        ("apx", "arg(a).\natt(a,b).\n", 2, "unknown argument 'b'", "declared with 'arg"),
        ("apx", "arg(a).\narg(b).\narg(a).\n", 3, "duplicate argument 'a' (first declared on line 1)", "once"),
        ("apx", "arg(a).\nargument(b).\n", 2, "cannot parse 'argument(b).'", "'arg(<name>).' or"),
        ("apx", "arg(a).\natt(a,a)\n", 2, "cannot parse", "'att(<name>,<name>).'"),
        ("apx", "arg(a). junk\n", 1, "cannot parse 'junk'", "'arg(<name>).'"),
        ("tgf", "a\nb\n#\na c\n", 4, "unknown argument 'c'", "listed before the '#'"),
        ("tgf", "a\na\n#\n", 2, "duplicate argument 'a'", "once"),
        ("tgf", "a\nb\n#\na b c\n", 4, "has 3 field(s)", "'<attacker> <target>'"),
        ("tgf", "a\n#\n#\n", 3, "a second '#'", "'<attacker> <target>'"),
        ("af", "p af 2\n1 3\n", 2, "unknown argument 3", "argument ids 1..2"),
        ("af", "p af 2\n1 x\n", 2, "bad attack line", "two numbers"),
        ("af", "1 2\n", 1, "bad header", "'p af <number of arguments>'"),
        ("af", "p af 2\n1 2\np af 3\n", 3, "a second 'p' header", "'<attacker> <target>'"),
        ("af", "p af 0\n", 1, "empty framework", "at least one argument"),
    ],
)
def test_malformed_line_is_named(fmt: str, text: str, line: int, message: str, expected: str) -> None:
    err = _error(fmt, text)
    assert err.line == line
    assert message in str(err)
    assert err.expected is not None and expected in err.expected
    assert str(err).startswith(f"bad.{fmt}:{line}: ")


@pytest.mark.parametrize(
    ("fmt", "text"),
    [("apx", ""), ("apx", "% only a comment\n"), ("tgf", "#\n"), ("tgf", ""), ("af", "# nothing\n")],
)
def test_empty_framework_is_an_error(fmt: str, text: str) -> None:
    err = _error(fmt, text)
    assert "empty framework" in str(err)


def test_tgf_without_separator_is_an_error() -> None:
    err = _error("tgf", "a\nb\n")
    assert "no '#' line" in str(err) and err.expected is not None and "'#'" in err.expected


def test_large_file_with_one_bad_line_names_that_line(tmp_path: Path) -> None:
    n = 100_000
    lines = [f"arg(a{i})." for i in range(n)] + [f"att(a{i},a{i + 1})." for i in range(n - 1)]
    bad_line = n + 54_321
    lines[bad_line - 1] = "att(a1,a2"  # truncated, like the upstream n512p5q2_vh.apx
    path = tmp_path / "big.apx"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(FormatError) as info:
        iccma.read_framework(path)
    assert info.value.line == bad_line and info.value.path == str(path)


def test_not_utf8_and_missing_file(tmp_path: Path) -> None:
    p = tmp_path / "x.apx"
    p.write_bytes(b"arg(a).\narg(\xff).\n")
    with pytest.raises(FormatError, match="not UTF-8") as info:
        iccma.read_framework(p)
    assert info.value.line == 2
    with pytest.raises(FormatError, match="cannot read"):
        iccma.read_framework(tmp_path / "missing.apx")


def test_unknown_format_name() -> None:
    with pytest.raises(ValidationError, match="unknown framework format"):
        iccma.parse("arg(a).", "json")


# -- in-memory validation ------------------------------------------------------------------------


def test_attack_graph_validation() -> None:
    with pytest.raises(ValidationError, match="duplicate argument 'a'"):
        AttackGraph.from_lists(["a", "a"], [])
    with pytest.raises(ValidationError, match="unknown argument 'c'"):
        AttackGraph.from_lists(["a", "b"], [("a", "c")])
    with pytest.raises(ValidationError, match="empty framework"):
        AttackGraph.from_lists([], [])
    with pytest.raises(ValidationError, match="non-empty"):
        AttackGraph.from_lists(["a", " "], [])
    with pytest.raises(ValidationError, match="pair"):
        AttackGraph.from_lists(["a"], [("a",)])
    g = AttackGraph.from_lists(["a", "b"], [("a", "b"), ("a", "b")])
    assert g.attacks == (("a", "b"),) and g.duplicate_attacks == 1


# -- writing ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["apx", "tgf"])
def test_write_then_parse_round_trips(fmt: str) -> None:
    g = AttackGraph.from_lists(["x1", "y", "z-3"], [("x1", "y"), ("y", "y"), ("z-3", "x1")])
    back = iccma.parse(iccma.write(g, fmt), fmt)
    assert back.arguments == g.arguments and back.attacks == g.attacks


def test_write_af_needs_numbered_arguments() -> None:
    g = AttackGraph.from_lists(["2", "1", "3"], [("3", "1"), ("1", "2")])
    assert iccma.write_af(g) == "p af 3\n1 2\n3 1\n"
    assert iccma.parse_af(iccma.write_af(g)).attacks == (("1", "2"), ("3", "1"))
    with pytest.raises(ValidationError, match="1..n"):
        iccma.write_af(AttackGraph.from_lists(["a"], []))


def test_names_that_cannot_be_written_are_refused() -> None:
    with pytest.raises(ValidationError, match="cannot be written"):
        iccma.write_apx(AttackGraph.from_lists(["a b"], []))


def test_iccma_output_styles_sort_by_code_point() -> None:
    assert iccma.format_extension(["a2", "a10", "a1"]) == "[a1,a10,a2]"
    assert iccma.format_extension([]) == "[]"
    assert iccma.format_extension(["2", "10"], "iccma23") == "w 10 2"


# -- the corpus parses to the published counts ---------------------------------------------------------


def test_every_corpus_file_parses_to_the_expected_counts() -> None:
    rows = list(csv.DictReader((CORPUS / "EXPECTED.tsv").open(encoding="utf-8"), delimiter="\t"))
    on_disk = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.suffix in (".apx", ".tgf")}
    assert {r["file"] for r in rows} == on_disk  # every instance has its expected answer, and no more
    assert {f.split("/")[0] for f in on_disk} == {"aasgd", "afgen", "probo", "pygarg-ba"}
    wrong = []
    for r in rows:
        af = iccma.read_framework(CORPUS / r["file"])
        if (len(af.arguments), len(af.attacks), af.duplicate_attacks) != (int(r["n_args"]), int(r["n_attacks"]), 0):
            wrong.append((r["file"], len(af.arguments), len(af.attacks)))
    assert not wrong, wrong
