"""Bulk import without a database: line parsing, records and the digest that guards a resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from belief_graph.models import ClaimInput
from belief_graph.models.imports import ImportInfo
from belief_graph.services.importer import _BadLine, _chain, item_records, jsonl_records, parse_item


def test_a_line_becomes_a_claim_input() -> None:
    d = parse_item(
        b'{"key": "user.tz", "value": "CET", "text": "on CET", "agent": "user:a", "confidence": 0.8}', None, None
    )
    assert d == ClaimInput(key="user.tz", value="CET", text="on CET", agent="user:a", confidence=0.8)
    typed = parse_item(
        b'{"key": "a.n", "value": 3, "text": "t", "agent": "x", "valid_from": "2026-01-02T00:00:00Z"}', None, None
    )
    assert typed is not None and typed.value == 3 and isinstance(typed.value, int) and typed.valid_from is not None
    flag = parse_item(b'{"key": "a.f", "value": true, "text": "t", "agent": "x"}', None, None)
    assert flag is not None and flag.value is True


def test_a_byte_order_mark_is_not_part_of_the_line() -> None:
    d = parse_item('\ufeff{"text": "t", "agent": "a"}'.encode(), None, None)
    assert d is not None and d.text == "t"


def test_blank_lines_are_none_and_the_default_agent_fills_in() -> None:
    assert parse_item(b"", None, None) is None and parse_item(b"   \t", None, "a") is None
    d = parse_item(b'{"text": "no key", "agent": null}', None, "user:default")
    assert d is not None and d.agent == "user:default" and d.key is None
    own = parse_item(b'{"text": "t", "agent": "user:own"}', None, "user:default")
    assert own is not None and own.agent == "user:own"


def test_items_may_be_mappings_or_claim_inputs() -> None:
    c = ClaimInput(key="a.b", value=1, text="t", agent="x")
    assert parse_item(b"", c, None) is c
    assert parse_item(b"", {"key": "a.b", "value": 1, "text": "t"}, "x") == c


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"{", "not JSON"),
        (b"42", "a line is a JSON object"),
        (b'{"text": "t", "agent": "a", "valeu": 1}', "unknown field(s) valeu"),
        (
            b'{"key": "a.b", "value": {"x": 1}, "text": "t", "agent": "a"}',
            "value: a fact value is a string, number or boolean",
        ),
        (b'{"key": "a..b", "value": 1, "text": "t", "agent": "a"}', "key: Value error, fact keys are dotted names"),
        (b'{"text": "t"}', "no agent"),
        (b'{"text": "", "agent": "a"}', "text: "),
        (b'{"text": "t", "agent": "a", "confidence": 2}', "confidence: "),
        (b'{"text": "t", "agent": "a", "evidence": "ep-1"}', "evidence: "),
        (b'\xff{"text": "t"}', "not UTF-8 (byte 1)"),
        # checks of ours inside ClaimInput: the line is rejected, the import goes on
        (b'{"text": "t", "agent": "a", "valid_from": "2026-01-02T00:00:00"}', "valid_from must be a timezone-aware"),
        (
            b'{"text": "t", "agent": "a", "valid_from": "2999-01-02T00:00:00Z"}',
            "valid_from 2999-01-02T00:00:00+00:00 is in",
        ),
        (b'{"text": "t", "agent": "a", "valid_from": "1899-12-31T23:59:59Z"}', "is before 1900-01-01"),
    ],
)
def test_bad_lines_say_what_is_wrong(raw: bytes, message: str) -> None:
    with pytest.raises(_BadLine) as err:
        parse_item(raw, None, None)
    assert message in str(err.value)


def test_jsonl_records_number_lines_and_keep_their_bytes(tmp_path: Path) -> None:
    p = tmp_path / "f.jsonl"
    p.write_bytes(b'{"a": 1}\r\n\n{"b": 2}')
    assert list(jsonl_records(p)) == [(1, b'{"a": 1}', None), (2, b"", None), (3, b'{"b": 2}', None)]


def test_item_digest_ignores_key_order_and_the_chain_depends_on_order() -> None:
    ((_, a, _),) = item_records([{"key": "k.a", "text": "t", "agent": "x"}])
    ((_, b, _),) = item_records([{"agent": "x", "text": "t", "key": "k.a"}])
    assert a == b
    one, two = _chain(_chain("", b"x"), b"y"), _chain(_chain("", b"y"), b"x")
    assert one != two and one == _chain(_chain("", b"x"), b"y") and len(one) == 64


def test_import_info_from_a_record() -> None:
    info = ImportInfo.from_record(
        {
            "name": "n",
            "source": None,
            "status": "complete",
            "done": 7,
            "digest": "d",
            "batches": 2,
            "runs": 1,
            "errors": ["line 3: x"],
            "n_add": 5,
            "n_rejected": 1,
            "n_noop": None,
            "started_at": "t0",
            "updated_at": "t1",
            "finished_at": "t1",
        }
    )
    assert info.done == 7 and info.counts == {"add": 5, "rejected": 1, "noop": 0} and info.errors == ["line 3: x"]
