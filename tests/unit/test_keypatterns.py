"""Key patterns: the linear matcher agrees with the regular-expression semantics, its work is
bounded (counted in character comparisons, never timed), and malformed or oversized patterns are
refused."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from belief_graph import keypatterns
from belief_graph.errors import ValidationError


def _old_regex(pattern: str) -> str:
    """The regex the engine used to store and match with ``=~`` (backtracking on several ``*``)."""
    return ".+".join(re.escape(part) for part in pattern.split("*"))


_seg = st.sampled_from(["a", "b", "ab", "*", "a*", "*b", "ba", "a-b"])
_patterns = st.lists(_seg, min_size=1, max_size=6).map(".".join)
_keys = st.lists(st.sampled_from(["a", "b", "ab", "ba", "a-b", "bb"]), min_size=1, max_size=8).map(".".join)


@settings(max_examples=2000, deadline=None)
@given(_patterns, _keys)
def test_match_agrees_with_the_regex_semantics(pattern: str, key: str) -> None:
    expected = re.fullmatch(_old_regex(pattern), key) is not None
    assert keypatterns.match(pattern, key) is expected
    assert (re.fullmatch(keypatterns.to_regex(pattern), key) is not None) is expected


def _backtracking_steps(pattern: str, key: str, cap: int) -> int:
    """Steps of a plain backtracking matcher for the old regex (what ``=~`` did), capped."""
    chunks = pattern.split("*")
    steps = 0

    def go(ci: int, pos: int) -> bool:
        nonlocal steps
        steps += 1
        if steps >= cap:
            raise OverflowError
        chunk = chunks[ci]
        if not key.startswith(chunk, pos):
            return False
        pos += len(chunk)
        if ci == len(chunks) - 1:
            return pos == len(key)
        # greedy '.+': the longest run first, then give back one character at a time
        return any(go(ci + 1, end) for end in range(len(key), pos, -1))

    try:
        go(0, 0)
    except OverflowError:
        pass
    return steps


def test_hostile_pattern_work_is_linear_not_exponential() -> None:
    key = ".".join(["s"] * 40)  # 40 segments, never ends in 'zz'
    linear: list[int] = []
    backtracking: list[int] = []
    for stars in range(1, 10):
        pattern = ".".join(["*"] * stars + ["zz"])
        counter = keypatterns.MatchCounter()
        assert keypatterns.match(pattern, key, counter) is False
        linear.append(counter.steps)
        if stars <= 5:
            backtracking.append(_backtracking_steps(pattern, key, cap=2_000_000))
    # the linear matcher: within len(key) x len(pattern), and growing at most linearly with '*'
    for stars, steps in enumerate(linear, 1):
        assert steps <= len(key) * (2 * stars + 3), (stars, steps)
    assert linear[-1] <= 9 * linear[0] + 100
    # the measure discriminates: the backtracking matcher of the old regex explodes (x ~30 per '*')
    assert backtracking[4] > 100 * linear[4]
    assert all(later > 5 * earlier for earlier, later in zip(backtracking, backtracking[1:], strict=False))


def test_worst_case_is_bounded_by_the_length_limits() -> None:
    key = ".".join(["a"] * 128)[:255] + "c"
    # a long middle chunk that almost matches at every other position of the key
    pattern = "*." + ".".join(["a"] * 14) + ".b.*." + ".".join(["a"] * 13) + ".*"
    keypatterns.parse(pattern)
    counter = keypatterns.MatchCounter()
    keypatterns.match(pattern, key, counter)
    assert counter.steps <= len(key) * len(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        "",
        "user..x",
        "user.x'",
        "user x",
        "a.(b)",
        "user.*x*y",
        "a" * 257,
        ".".join(["a"] * 33),
        ".".join(["*"] * 33),
        "**",
        "a.**",
        "user.\u00e9",
        42,
        None,
    ],
)
def test_malformed_or_oversized_patterns_are_refused(pattern: object) -> None:
    with pytest.raises(ValidationError):
        keypatterns.parse(pattern)  # type: ignore[arg-type]
    assert keypatterns.match(pattern, "user.x") is False  # type: ignore[arg-type]


def test_specificity_and_examples() -> None:
    assert keypatterns.match("user.schedule.*", "user.schedule.monday.am")
    assert not keypatterns.match("user.schedule.*", "user.schedule.")
    assert not keypatterns.match("user.schedule.*", "user.schedule")
    assert keypatterns.match("*", "x") and keypatterns.match("user.*.tz", "user.a.b.tz")
    assert keypatterns.match("user.tz", "user.tz") and not keypatterns.match("user.tz", "user.tzz")
    assert keypatterns.specificity("user.tz") > keypatterns.specificity("user.t*") > keypatterns.specificity("*")
