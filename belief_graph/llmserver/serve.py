"""The running server: :class:`LocalLLMServer` (serve/stop/status), its run file and processes,
and :func:`running_endpoint` that ``provider=auto`` uses to find it."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..errors import LLMServerError
from ..localserver.process import cmdline, file_lock, pid_alive, read_tail
from ..settings import LLMServerSettings
from .build import _BINARY, Progress, _say, find_binary, fix_links
from .model import model_alias, read_gguf_info

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
"""The only address the server listens on."""
_STOP_TIMEOUT = 10.0


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
        if isinstance(pid, int) and pid_alive(pid) and self._is_ours(pid, state):
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
        with file_lock(self._lock):
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
            if not pid_alive(pid):
                raise LLMServerError(
                    "llama-server exited during start-up; last lines of "
                    f"{self.log_file}:\n" + "\n".join(read_tail(self.log_file, 25, offset))
                )
            if _health(port) == 200:
                return
            if time.monotonic() >= deadline:
                raise LLMServerError(
                    f"llama-server was not ready within {self.settings.start_timeout:g} s "
                    "(raise BELIEF_GRAPH_LLM_SERVER__START_TIMEOUT on a slow machine); last lines of "
                    f"{self.log_file}:\n" + "\n".join(read_tail(self.log_file, 25, offset))
                )
            time.sleep(0.25)

    # ---- stop --------------------------------------------------------------------------------

    def stop(self, timeout: float = _STOP_TIMEOUT) -> LLMServerStatus:
        """Stop the server (SIGTERM to its process group, SIGKILL after ``timeout``); not running
        is fine."""
        with file_lock(self._lock):
            state = self.state()
            if state is None:
                return self._stopped("not running")
            t0 = time.monotonic()
            killed = self._terminate(int(state["pid"]), timeout)
            self.state_file.unlink(missing_ok=True)
            how = "killed" if killed else "stopped"
            return self._stopped(f"{how} in {time.monotonic() - t0:.1f} s")

    def log_tail(self, n: int = 40) -> str:
        return "\n".join(read_tail(self.log_file, n))

    # ---- internals ---------------------------------------------------------------------------

    def _is_ours(self, pid: int, state: Mapping[str, Any]) -> bool:
        cmd = cmdline(pid)
        if cmd is None:
            return True
        return _BINARY in cmd and f"--port {state.get('port')}" in cmd

    def _terminate(self, pid: int, timeout: float = _STOP_TIMEOUT) -> bool:
        """SIGTERM, wait, SIGKILL; True when it had to be killed."""
        _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while pid_alive(pid):
            if time.monotonic() >= deadline:
                _signal(pid, signal.SIGKILL)
                end = time.monotonic() + 10
                while pid_alive(pid) and time.monotonic() < end:
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


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
