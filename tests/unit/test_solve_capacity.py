"""The size of framework the server can solve, derived from its heap (argumentation/capacity.py)."""

from __future__ import annotations

import pytest

from belief_graph.argumentation.capacity import ARGUMENT_BYTES, parse_size, solve_capacity
from belief_graph.settings import ServerSettings


@pytest.mark.parametrize(
    "size, bytes_",
    [
        ("512m", 512 * 2**20),
        ("512M", 512 * 2**20),
        ("512MiB", 512 * 2**20),
        ("1g", 2**30),
        ("2048k", 2**21),
        ("4096", 4096),
    ],
)
def test_parse_size(size: str, bytes_: int) -> None:
    assert parse_size(size) == bytes_


@pytest.mark.parametrize("size", ["", "lots", "1.5g", "-1m", "512x"])
def test_parse_size_refuses_what_is_not_a_size(size: str) -> None:
    assert parse_size(size) is None


def test_the_default_heap_solves_91750_arguments() -> None:
    """70% of 512 MiB at 4,096 bytes an argument; the measured ceiling is 100,000-120,000."""
    cap = solve_capacity(ServerSettings())
    assert cap is not None
    assert cap.budget == int(512 * 2**20 * 0.7) and cap.arguments == cap.budget // ARGUMENT_BYTES == 91_750
    assert cap.setting == "BELIEF_GRAPH_SERVER__HEAP" and "512m heap" in cap.source


def test_the_limit_follows_the_heap() -> None:
    small, large = solve_capacity(ServerSettings(heap="256m")), solve_capacity(ServerSettings(heap="1g"))
    assert small is not None and large is not None
    assert small.arguments == 45_875 and large.arguments == 183_500


def test_a_smaller_transaction_cap_binds_and_is_named() -> None:
    cap = solve_capacity(ServerSettings(transaction_max="128m"))
    assert cap is not None and cap.arguments == 128 * 2**20 // ARGUMENT_BYTES == 32_768
    assert cap.setting == "BELIEF_GRAPH_SERVER__TRANSACTION_MAX"
    roomy = solve_capacity(ServerSettings(transaction_max="1g"))  # above 70% of the heap: the heap binds
    assert roomy is not None and roomy.setting == "BELIEF_GRAPH_SERVER__HEAP" and roomy.arguments == 91_750


def test_a_heap_that_is_not_a_size_gives_no_capacity() -> None:
    assert solve_capacity(ServerSettings(heap="plenty")) is None
