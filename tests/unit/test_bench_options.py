"""What the bench commands share (cli/bench/options.py): bad option values are typed errors, exit 2,
and refused before anything connects to a database."""

from __future__ import annotations

import sys

import pytest

from belief_graph.cli import main
from belief_graph.errors import ValidationError
from belief_graph_lab.cli.bench.options import FULL_SIZES, numbers, sizes_or_full, timed_engine, words

pytestmark = pytest.mark.unit

NO_SERVER = {"BELIEF_GRAPH_NEO4J__URI": "bolt://127.0.0.1:1"}
"""Nothing listens there: a command that got past its checks would fail to connect instead."""


def test_lists_of_words_and_numbers() -> None:
    assert words(" a, b,,c ") == ["a", "b", "c"]
    assert numbers("1000, 10000,", "--sizes") == [1000, 10000]
    assert numbers("1,0.1", "--shares", float) == [1.0, 0.1]
    assert sizes_or_full("5", full=True) == FULL_SIZES and sizes_or_full("5", full=False) == [5]


def test_a_bad_number_names_its_option() -> None:
    with pytest.raises(ValidationError, match=r"--chains must be comma-separated integers, got '2,x'"):
        numbers("2,x", "--chains")


def test_an_unknown_embedder_is_refused_before_the_engine_is_built() -> None:
    def engine() -> object:
        raise AssertionError("connected before checking --embedder")

    with pytest.raises(ValidationError, match="--embedder is 'hashing' or 'configured'"):
        timed_engine(engine, "minilm")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "edits", "--sizes", "1000,lots"], "--sizes must be comma-separated integers"),
        (["bench", "writes", "--embedder", "minilm"], "--embedder is 'hashing' or 'configured'"),
        (["bench", "tenants", "--shares", "half"], "--shares must be comma-separated numbers"),
        (["bench", "tenancy", "--small", "1e3x"], "--small must be comma-separated integers"),
        (["bench", "recall", "--fetch", "50,many"], "--fetch must be comma-separated integers"),
        (["bench", "revision-latency", "--chains", "2,x"], "--chains must be comma-separated integers"),
    ],
)
def test_bench_commands_refuse_bad_lists_with_exit_2(
    argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the real entry point (``belief-graph``), as a user meets it."""
    for k, v in NO_SERVER.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(sys, "argv", ["belief-graph", *argv])
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 2
    assert message in capsys.readouterr().err
