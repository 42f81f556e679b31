"""The local chat server's management (``belief-graph llm serve|stop|status``) without the real
binary: a stand-in ``llama-server`` (a small Python HTTP server answering ``/health`` and
``/v1/chat/completions``) and a hand-made GGUF header. The real server runs in tests/real_llm."""

from __future__ import annotations

import json
import os
import stat
import struct
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belief_graph.cli import app
from belief_graph.errors import LLMServerError, LLMUnavailable
from belief_graph.llm import make_chat_model, make_client, resolve_provider
from belief_graph.llmserver import (
    CMAKE_FLAGS,
    LocalLLMServer,
    build_cache_dir,
    cpu_has_amx,
    fix_links,
    read_gguf_info,
    running_endpoint,
)
from belief_graph.settings import LLMServerSettings, LLMSettings

FAKE_SERVER = textwrap.dedent("""\
    #!{python}
    # a stand-in llama-server: /health and a fixed chat completion, on the given host/port
    import json, sys
    from http.server import BaseHTTPRequestHandler, HTTPServer
    args = sys.argv[1:]
    host, port = args[args.index("--host") + 1], int(args[args.index("--port") + 1])
    alias = args[args.index("--alias") + 1]
    if "--version" in args:
        print("version: fake"); sys.exit(0)
    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            self._send({{"status": "ok"}})
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            content = json.dumps({{"winner": "c1", "rationale": "fake"}})
            self._send({{"id": "x", "object": "chat.completion", "created": 0, "model": alias,
                        "choices": [{{"index": 0, "finish_reason": "stop",
                                     "message": {{"role": "assistant", "content": content}}}}],
                        "usage": {{"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}}}})
        def _send(self, payload):
            data = json.dumps(payload).encode()
            self.send_response(200); self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
        def log_message(self, *a):
            pass
    print("fake llama-server listening", flush=True)
    HTTPServer((host, port), H).serve_forever()
""")


def _gguf(path: Path, name: str = "Tiny Test Model") -> Path:
    def s(text: str) -> bytes:
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    kvs = [
        s("general.architecture") + struct.pack("<I", 8) + s("qwen2"),
        s("general.name") + struct.pack("<I", 8) + s(name),
        s("general.size_label") + struct.pack("<I", 8) + s("0.1B"),
        s("general.file_type") + struct.pack("<I", 4) + struct.pack("<I", 15),
        s("qwen2.context_length") + struct.pack("<I", 4) + struct.pack("<I", 32768),
        s("tokenizer.ggml.scores") + struct.pack("<I", 9) + struct.pack("<IQ", 6, 3) + struct.pack("<3f", 1, 2, 3),
        s("tokenizer.ggml.tokens") + struct.pack("<I", 9) + struct.pack("<IQ", 8, 2) + s("a") + s("b"),
    ]
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs) + b"\0" * 64)
    return path


@pytest.fixture()
def fake(tmp_path: Path) -> Iterator[LLMServerSettings]:
    exe = tmp_path / "bin" / "llama-server"
    exe.parent.mkdir()
    exe.write_text(FAKE_SERVER.format(python=sys.executable))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    settings = LLMServerSettings(
        home=tmp_path / "home", binary=exe, model_path=_gguf(tmp_path / "tiny-q4.gguf"), start_timeout=60
    )
    yield settings
    LocalLLMServer(settings).stop()


def test_gguf_metadata_is_read_from_the_header(tmp_path: Path) -> None:
    info = read_gguf_info(_gguf(tmp_path / "m.gguf"))
    assert (info.name, info.architecture, info.size_label, info.file_type, info.context_length) == (
        "Tiny Test Model",
        "qwen2",
        "0.1B",
        "Q4_K_M",
        32768,
    )
    assert info.label.startswith("Tiny Test Model (0.1B parameters, Q4_K_M, ")
    (tmp_path / "x.gguf").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a GGUF"):
        read_gguf_info(tmp_path / "x.gguf")


def test_serve_status_stop_and_the_client_follows_the_server(fake: LLMServerSettings) -> None:
    server = LocalLLMServer(fake)
    assert not server.status().running and running_endpoint(fake) is None
    assert resolve_provider(LLMSettings(), fake) == "replay"

    st = server.serve()
    assert st.running and st.ready and st.url == f"http://127.0.0.1:{st.port}/v1"
    assert st.alias == "tiny-q4" and st.model_name == "Tiny Test Model" and st.message.startswith("started in")
    assert server.serve().message == "already running"  # idempotent
    assert LocalLLMServer(fake).status().pid == st.pid  # found again through the run file

    # while it runs, provider=auto (no key) uses it, named by the model's alias
    assert resolve_provider(LLMSettings(), fake) == "local"
    assert resolve_provider(LLMSettings(api_key="sk-x"), fake) == "openai"  # a key still wins
    client = make_client(LLMSettings(), server=fake)
    r = client.judge("q?", [{"id": "a", "agent": "x", "text": "t"}, {"id": "b", "agent": "y", "text": "u"}])
    assert r.output.winner == "a" and r.provenance.model == "tiny-q4"
    assert client.usage().jobs["judge"].tokens_in == 11
    assert "Tiny Test Model" in client.describe()

    stopped = server.stop()
    assert not stopped.running and stopped.message.startswith("stopped")
    assert not server.status().running and resolve_provider(LLMSettings(), fake) == "replay"
    with pytest.raises(LLMUnavailable, match="llm serve"):
        make_chat_model(LLMSettings(provider="local"), fake)


def test_the_server_binds_loopback_only(fake: LLMServerSettings) -> None:
    st = LocalLLMServer(fake).serve()
    cmdline = Path(f"/proc/{st.pid}/cmdline").read_bytes().split(b"\0")
    assert cmdline[cmdline.index(b"--host") + 1] == b"127.0.0.1"


def test_no_repack_on_a_cpu_with_amx(fake: LLMServerSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx512f amx_bf16 amx_tile amx_int8\n")
    assert cpu_has_amx(info)
    info.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx2\n")
    assert not cpu_has_amx(info) and not cpu_has_amx(tmp_path / "missing")
    import belief_graph.llmserver.serve as mod

    def argv(settings: LLMServerSettings) -> list[bytes]:
        server = LocalLLMServer(settings)
        try:
            return Path(f"/proc/{server.serve().pid}/cmdline").read_bytes().split(b"\0")
        finally:
            server.stop()

    monkeypatch.setattr(mod, "cpu_has_amx", lambda: True)
    assert b"--no-repack" in argv(fake)
    assert b"--no-repack" not in argv(fake.model_copy(update={"extra_args": ["--repack"]}))  # the user's choice wins
    monkeypatch.setattr(mod, "cpu_has_amx", lambda: False)
    assert b"--no-repack" not in argv(fake)


def test_a_stale_run_file_is_dropped(fake: LLMServerSettings) -> None:
    server = LocalLLMServer(fake)
    server.state_file.parent.mkdir(parents=True)
    server.state_file.write_text(json.dumps({"pid": 2**22 - 3, "port": 1}))
    assert not server.status().running and not server.state_file.exists()


def test_missing_model_or_binary_and_managed_args_are_clear_errors(fake: LLMServerSettings, tmp_path: Path) -> None:
    with pytest.raises(LLMServerError, match="fetch-local-model.sh"):
        LocalLLMServer(fake.model_copy(update={"model_path": tmp_path / "none.gguf"})).serve()
    with pytest.raises(LLMServerError, match="belief-graph llm install"):
        LocalLLMServer(fake.model_copy(update={"binary": tmp_path / "nope"})).serve()
    with pytest.raises(LLMServerError, match="may not set --host"):
        LocalLLMServer(fake.model_copy(update={"extra_args": ["--host", "0.0.0.0"]})).serve()


def test_a_server_that_dies_at_start_is_reported_with_its_log(fake: LLMServerSettings, tmp_path: Path) -> None:
    bad = tmp_path / "bin" / "llama-server-bad"
    bad.write_text("#!/bin/sh\necho 'error: cannot load model' ; exit 1\n")
    bad.chmod(0o755)
    with pytest.raises(LLMServerError, match="cannot load model"):
        LocalLLMServer(fake.model_copy(update={"binary": bad})).serve()


def test_fix_links_recreates_the_manifest_links(tmp_path: Path) -> None:
    (tmp_path / "libllama.so.0.0.1").write_bytes(b"")
    (tmp_path / "_symlinks.json").write_text(
        json.dumps(
            {
                "libllama.so.0": "libllama.so.0.0.1",
                "libllama.so": "libllama.so.0",
                "libgone.so": "missing.so",
                "../evil": "libllama.so.0.0.1",
            }
        )
    )
    made = fix_links(tmp_path)
    assert sorted(made) == ["libllama.so", "libllama.so.0"]
    assert os.readlink(tmp_path / "libllama.so.0") == "libllama.so.0.0.1"
    assert not (tmp_path.parent / "evil").exists()
    assert fix_links(tmp_path) == []  # idempotent


def test_the_build_is_cached_outside_the_checkout_with_the_flags_that_avoid_downloads() -> None:
    assert {
        "-DLLAMA_USE_PREBUILT_UI=OFF",
        "-DLLAMA_BUILD_UI=OFF",
        "-DLLAMA_OPENSSL=OFF",
        "-DLLAMA_BUILD_TESTS=OFF",
        "-DLLAMA_BUILD_EXAMPLES=OFF",
    } == set(CMAKE_FLAGS)
    root = Path(__file__).resolve().parents[2]
    assert root not in build_cache_dir().parents


def test_cli_status_serve_stop(fake: LLMServerSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in (("HOME", fake.home), ("BINARY", fake.binary), ("MODEL_PATH", fake.home / "absent.gguf")):
        monkeypatch.setenv(f"BELIEF_GRAPH_LLM_SERVER__{k}", str(v))
    runner = CliRunner()
    assert runner.invoke(app, ["llm", "status"]).exit_code == 3
    out = runner.invoke(app, ["llm", "serve", "--json", "--model", str(fake.model_path)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["running"] and data["alias"] == "tiny-q4"
    info = json.loads(runner.invoke(app, ["llm", "info", "--json"]).output)
    assert info["resolved"] == "local" and info["model"] == "tiny-q4"
    assert info["limits"]["encode"]["max_tokens"] > 0 and info["limits"]["encode"]["max_tokens_per_item"] > 0
    assert runner.invoke(app, ["llm", "status", "-q"]).exit_code == 0
    assert json.loads(runner.invoke(app, ["llm", "stop", "--json"]).output)["running"] is False


@pytest.mark.parametrize(
    "argv", [["demo", "--real-llm", "--no-server"], ["demo", "rashomon", "--real-llm", "--no-server"]]
)
def test_the_demo_on_a_real_model_says_when_there_is_none(argv: list[str]) -> None:
    """No key and no local server: --real-llm refuses to fall back to the replay/scripted answers."""
    result = CliRunner().invoke(app, argv, env={"BELIEF_GRAPH_LLM__API_KEY": ""})
    assert isinstance(result.exception, LLMUnavailable), result.output
    assert "belief-graph llm serve" in str(result.exception)
