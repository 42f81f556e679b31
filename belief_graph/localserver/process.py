"""Files and processes of the local server: its layout under ``<home>``, file locks, ``/proc``
look-ups, run files, spawning and terminating (shared with the local LLM server)."""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import ServerError, ServerStartFailed
from ..settings import ServerSettings
from .java import _ENTRY_POINTS

log = logging.getLogger(__name__)

_TAIL_LINES = 40


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class ServerLayout:
    """Every path the local server uses, derived from ``ServerSettings`` (absolute)."""

    home: Path
    data_dir: Path
    version: str

    @property
    def dist_root(self) -> Path:
        return self.home / "dist"

    @property
    def dist_dir(self) -> Path:
        return self.dist_root / self.version

    @property
    def lib_dir(self) -> Path:
        return self.dist_dir / "lib"

    @property
    def marker(self) -> Path:
        """Written last by :meth:`LocalServer.install`; without it the distribution is rebuilt."""
        return self.dist_dir / "COMPLETE"

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def conf_file(self) -> Path:
        return self.conf_dir / "neo4j.conf"

    @property
    def logs_dir(self) -> Path:
        return self.home / "logs"

    @property
    def neo4j_log(self) -> Path:
        return self.logs_dir / "neo4j.log"

    @property
    def console_log(self) -> Path:
        return self.logs_dir / "console.log"

    @property
    def run_dir(self) -> Path:
        return self.home / "run"

    @property
    def pid_file(self) -> Path:
        return self.run_dir / "neo4j.pid"

    @property
    def state_file(self) -> Path:
        return self.run_dir / "server.json"

    @property
    def lock_file(self) -> Path:
        return self.run_dir / "server.lock"

    @property
    def import_dir(self) -> Path:
        return self.home / "import"

    @property
    def store_lock(self) -> Path:
        return self.data_dir / "databases" / "store_lock"


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive advisory lock (``flock``) for the duration of the block, across processes."""
    import fcntl  # POSIX only; imported here so the module imports everywhere

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as fh:  # not inherited by children (PEP 446)
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _locked_by_other_process(path: Path) -> bool:
    """True when another process holds a POSIX record lock on ``path`` (Java's ``tryLock``)."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        return exc.errno in (errno.EACCES, errno.EAGAIN)
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def cmdline(pid: int) -> str | None:
    """The command line of ``pid`` (space-joined), ``None`` when it cannot be read."""
    proc = Path(f"/proc/{pid}/cmdline")
    if proc.parent.parent.is_dir() and Path("/proc/self").exists():
        try:
            return proc.read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            return None
    try:
        out = subprocess.run(
            ["ps", "-o", "command=", "-p", str(pid)],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _is_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    # "pid (comm) S ..." — comm may contain spaces and parentheses
    return stat.rpartition(")")[2].split()[:1] == ["Z"]


def pid_alive(pid: int, exit_codes: dict[int, int] | None = None) -> bool:
    """Whether process ``pid`` runs: our dead child is reaped (its exit code kept in ``exit_codes``),
    a zombie counts as dead, a process of another user as alive."""
    try:
        wpid, wstatus = os.waitpid(pid, os.WNOHANG)  # reaps it if it is our dead child
    except ChildProcessError:
        pass  # not our child
    except OSError:
        return False
    else:
        if wpid == 0:
            return True
        if exit_codes is not None:
            exit_codes[pid] = os.waitstatus_to_exitcode(wstatus)
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _is_zombie(pid)


def read_tail(path: Path, n: int, start: int = 0) -> list[str]:
    """The last ``n`` lines of ``path`` from byte ``start`` on (reads at most 256 KiB)."""
    try:
        size = path.stat().st_size
        if size <= start:
            return []
        with open(path, "rb") as fh:
            fh.seek(max(start, size - 256 * 1024))
            data = fh.read()
    except OSError:
        return []
    return data.decode(errors="replace").splitlines()[-n:] if n > 0 else []


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


_ERROR_LINE_RE = re.compile(r"(Exception|Error|error:|ERROR|Invalid|invalid|Could not|Unrecognized)")


def _first_error_line(lines: Sequence[str]) -> str | None:
    for line in lines:
        if _ERROR_LINE_RE.search(line) and not line.startswith("==>"):
            text = line.strip()
            return text if len(text) <= 300 else text[:297] + "..."
    return None


@dataclass
class _Found:
    pid: int | None
    state: dict[str, Any]
    stale: bool = False
    adopted: bool = False


def _walk_owned(root: Path, skip: set[Path]) -> Iterator[Path]:
    """Every path below ``root`` without following symlinks, leaving out the ``skip`` subtrees."""
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d not in skip]
        for name in dirnames + filenames:
            yield here / name


class _ProcessControl:
    """The server process as files and signals: run files, pid checks, spawn and terminate.
    Part of :class:`~belief_graph.localserver.server.LocalServer`."""

    server: ServerSettings
    layout: ServerLayout
    _exit_codes: dict[int, int]

    def _read_state(self) -> dict[str, Any]:
        lay = self.layout
        try:
            data = json.loads(lay.state_file.read_text())
            if isinstance(data, dict):
                return data
        except (OSError, ValueError):
            pass
        try:
            return {"pid": int(lay.pid_file.read_text().strip())}
        except (OSError, ValueError):
            return {}

    def _write_run_files(self, state: Mapping[str, Any]) -> None:
        lay = self.layout
        lay.run_dir.mkdir(parents=True, exist_ok=True)
        for path, text in (
            (lay.pid_file, f"{state['pid']}\n"),
            (lay.state_file, json.dumps(dict(state), indent=2) + "\n"),
        ):
            tmp = path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(text)
            tmp.replace(path)

    def _remove_run_files(self) -> None:
        for path in (self.layout.pid_file, self.layout.state_file):
            path.unlink(missing_ok=True)

    def _is_our_server(self, pid: int) -> bool:
        cmd = cmdline(pid)
        if cmd is None:  # cannot tell (no /proc, no ps): trust the pid file
            return True
        return any(e in cmd for e in _ENTRY_POINTS) and f"--home-dir={self.layout.home}" in cmd

    def _find(self) -> _Found:
        """Locate this home's server: the pid file, else (Linux) a matching process in /proc.
        Removes pid/state files that point to a dead or foreign process."""
        state = self._read_state()
        stale = False
        pid = state.get("pid")
        if isinstance(pid, int) and pid > 0:
            if self._pid_alive(pid) and self._is_our_server(pid):
                return _Found(pid=pid, state=state)
            log.info("removing stale pid file (pid %d is gone)", pid)
            self._remove_run_files()
            stale = True
        elif state:
            self._remove_run_files()
            stale = True
        orphan = self._scan_proc()
        if orphan is not None:
            log.warning("found Neo4j for %s as pid %d without a pid file", self.layout.home, orphan)
            state = self._state_from_conf(orphan)
            self._write_run_files(state)
            return _Found(pid=orphan, state=state, stale=stale, adopted=True)
        return _Found(pid=None, state={}, stale=stale)

    def _state_from_conf(self, pid: int) -> dict[str, Any]:
        """Rebuild the run state of a server found without a pid file from the ``neo4j.conf``
        it was started with (only ``start`` writes that file, and it would have found it)."""
        state: dict[str, Any] = {"pid": pid, "version": self.server.version}
        try:
            text = self.layout.conf_file.read_text()
        except OSError:
            return state
        conf = dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))
        bolt = conf.get("server.bolt.listen_address", "").rpartition(":")[2]
        http = conf.get("server.http.listen_address", "").rpartition(":")[2]
        if bolt.isdigit():
            state["bolt_port"] = int(bolt)
        state["http_port"] = int(http) if conf.get("server.http.enabled") == "true" and http.isdigit() else 0
        state["browser"] = state["http_port"] != 0 and "browser.post_connect_cmd" in conf
        if "server.directories.data" in conf:
            state["data_dir"] = conf["server.directories.data"]
        return state

    def _scan_proc(self) -> int | None:
        proc = Path("/proc")
        if not (proc / "self").exists():
            return None
        needle = f"--home-dir={self.layout.home}"
        for entry in proc.iterdir():
            if not entry.name.isdigit():
                continue
            pid = int(entry.name)
            try:
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            args = [c.decode(errors="replace") for c in cmd]
            if any(e in args for e in _ENTRY_POINTS) and needle in args and self._pid_alive(pid):
                return pid
        return None

    def _pid_alive(self, pid: int) -> bool:
        return pid_alive(pid, self._exit_codes)

    def _wait_exit(self, pid: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self._pid_alive(pid):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.1)
        return True

    def _terminate(self, pid: int, timeout: float = 30.0) -> None:
        """Stop a server this call started but could not bring up; remove the run files."""
        self._signal(pid, signal.SIGTERM)
        if not self._wait_exit(pid, timeout):
            self._signal(pid, signal.SIGKILL)
            self._wait_exit(pid, 10.0)
        self._remove_run_files()

    @staticmethod
    def _signal(pid: int, sig: signal.Signals) -> None:
        try:
            if os.getpgid(pid) == pid:  # we started it with setsid: signal the whole group
                os.killpg(pid, sig)
            else:
                os.kill(pid, sig)
        except ProcessLookupError:
            pass

    @staticmethod
    def _spawn(argv: Sequence[str], console_log: Path) -> int:
        """Start ``argv`` detached (own session), stdin from /dev/null, stdout+stderr appended
        to ``console_log``; return its pid."""
        if sys.platform == "win32":  # pragma: no cover
            raise ServerError("the local Neo4j server is supported on Linux and macOS only")
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, str(console_log), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600),
            (os.POSIX_SPAWN_DUP2, 1, 2),
        ]
        old_umask = os.umask(0o077)  # inherited: every file Neo4j creates is owner-only
        try:
            return os.posix_spawn(argv[0], list(argv), dict(os.environ), file_actions=actions, setsid=True)
        except NotImplementedError:  # pragma: no cover - platforms without POSIX_SPAWN_SETSID
            with open(console_log, "ab") as out:
                proc = subprocess.Popen(
                    list(argv),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            return proc.pid
        except OSError as exc:
            raise ServerStartFailed(f"could not run {argv[0]}: {exc}") from exc
        finally:
            os.umask(old_umask)
