"""The LangGraph store without a database: its mapping of namespace labels and item keys to fact-key
segments (one to one, and every segment one the key grammar accepts, ``models.KEY_RE``, whatever the
label holds), and the error that names the extra when LangGraph is not installed."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from belief_graph.errors import ValidationError
from belief_graph.integrations.langgraph import decode_label, encode_label
from belief_graph.models import KEY_RE

# valid Unicode only (a lone surrogate cannot be stored as UTF-8: refused, tested below)
labels = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@pytest.mark.parametrize(
    ("label", "segment"),
    [
        ("theme", "theme"),
        ("user_123", "user_123"),
        ("a b", "a-20b"),
        ("x-y", "x-2dy"),
        ("v1.2", "v1-2e2"),
        ("é", "_---c3-a9"),
        ("", "_--"),
        ("-lead", "_---2dlead"),
    ],
)
def test_known_segments(label: str, segment: str) -> None:
    assert encode_label(label) == segment
    assert decode_label(segment) == label


@given(labels)
@settings(max_examples=300)
def test_every_label_becomes_one_valid_segment_and_comes_back(label: str) -> None:
    seg = encode_label(label)
    assert KEY_RE.match(seg), seg
    assert "." not in seg
    assert decode_label(seg) == label


@given(labels, labels)
def test_two_labels_never_share_a_segment(a: str, b: str) -> None:
    if a != b:
        assert encode_label(a) != encode_label(b)


@pytest.mark.parametrize("segment", ["a-zz", "a-2", "_--_", "a b", "-2", "a-2D"])
def test_segments_the_store_did_not_write_are_refused(segment: str) -> None:
    with pytest.raises(ValueError):
        decode_label(segment)


def test_a_lone_surrogate_is_refused() -> None:
    with pytest.raises(ValidationError, match="surrogate"):
        encode_label("a\ud800b")


def test_without_langgraph_the_import_names_the_extra() -> None:
    probe = (
        "import sys; sys.modules['langgraph.store.base'] = None\n"  # what an environment without it sees
        "try:\n"
        "    import belief_graph.integrations.langgraph\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "pip install 'belief-graph[langgraph]'" in out, out
