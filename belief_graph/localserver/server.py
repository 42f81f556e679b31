"""The local Neo4j server: :class:`LocalServer` (status, start, stop, passwords) and
:class:`ServerStatus`."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import socket
import stat
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..db.registry import get_registry
from ..errors import (
    ConfigurationError,
    PortInUse,
    ServerError,
    ServerNotRunning,
    ServerStartFailed,
)
from ..settings import Neo4jSettings, ServerSettings
from .conf import render_conf
from .distribution import _Distribution
from .java import java_command
from .probes import HOST, bolt_answers, port_in_use
from .process import (
    _TAIL_LINES,
    ServerLayout,
    _file_size,
    _first_error_line,
    _Found,
    _locked_by_other_process,
    _now,
    _ProcessControl,
    _walk_owned,
    file_lock,
    read_tail,
)
from .progress import Progress, _say

log = logging.getLogger(__name__)

_STOP_TIMEOUT = 60.0
_POLL_INTERVAL = 0.25
_INITIAL_USER = "neo4j"
_INITIAL_PASSWORD = "neo4j"
_MIN_PASSWORD_LENGTH = 8  # dbms.security.auth_minimum_password_length default in Neo4j 5

_VERSION_RE = re.compile(r"^\d+\.\d+\.\d+$")


# --------------------------------------------------------------------------------------------
# Status
# --------------------------------------------------------------------------------------------


class ServerStatus(BaseModel):
    """What :meth:`LocalServer.status`, :meth:`~LocalServer.start` and :meth:`~LocalServer.stop`
    report. ``to_dict()`` is JSON-ready (for ``--json``)."""

    running: bool
    """A Java process of this home's server is alive."""
    ready: bool = False
    """Bolt answers a protocol handshake (the server finished starting)."""
    pid: int | None = None
    bolt_uri: str
    http_url: str | None = None
    """``None`` when the HTTP connector is disabled (``http_port == 0``)."""
    browser_url: str | None = None
    """Neo4j Browser's address, only when the running server serves it."""
    browser_space: str | None = None
    """The memory space Browser's ``$space`` is set to on login (the space the running server was
    started for); ``None`` when Browser is not served or the server was started without a record
    of it."""
    version: str
    """Neo4j version of the running server (else: the configured one)."""
    home: Path
    data_dir: Path
    started_at: datetime | None = None
    message: str = ""
    """One line for humans: ``started in 11.2 s``, ``already running``, ``not running``, ..."""
    warnings: list[str] = Field(default_factory=list)
    """Things that did not stop the operation but need attention (e.g. a refused password)."""

    def to_dict(self) -> dict[str, Any]:
        """The status as plain JSON types (paths and times as strings)."""
        return self.model_dump(mode="json")


class LocalServer(_Distribution, _ProcessControl):
    """A Neo4j Community server under ``server.home``, managed through files in ``<home>/run``.

    Every method is safe to call from several processes: ``start`` and ``stop`` serialize on
    ``<home>/run/server.lock``, ``install`` on ``<home>/dist/.install.lock``. The server outlives
    the Python process that started it; any later ``LocalServer`` for the same home finds it.

    ``neo4j`` supplies the password (and user) the server is set up with; its ``uri`` is not
    used — the server is always ``bolt://127.0.0.1:<server.bolt_port>`` (:attr:`bolt_uri`).
    """

    def __init__(self, server: ServerSettings, neo4j: Neo4jSettings | None = None, *, space: str = "default") -> None:
        if not _VERSION_RE.match(server.version):
            raise ConfigurationError(
                f"BELIEF_GRAPH_SERVER__VERSION: {server.version!r} is not a Neo4j version like 5.26.30"
            )
        if server.http_port != 0 and server.http_port == server.bolt_port:
            raise ConfigurationError(f"BELIEF_GRAPH_SERVER__HTTP_PORT: {server.http_port} is also the Bolt port")
        self.server = server
        self.neo4j = neo4j if neo4j is not None else Neo4jSettings()
        self.space = space
        """The memory space Browser's guide and ``$space`` parameter are set up for."""
        home = Path(server.home).expanduser().resolve()
        self.layout = ServerLayout(
            home=home,
            data_dir=Path(server.effective_data_dir).expanduser().resolve()
            if server.data_dir is not None
            else home / "data",
            version=server.version,
        )
        self._exit_codes: dict[int, int] = {}

    # ---- addresses -------------------------------------------------------------------------

    @property
    def bolt_uri(self) -> str:
        """``bolt://127.0.0.1:<bolt_port>`` as configured."""
        return f"bolt://{HOST}:{self.server.bolt_port}"

    @property
    def http_url(self) -> str | None:
        """``http://127.0.0.1:<http_port>``, or ``None`` when HTTP is disabled."""
        return f"http://{HOST}:{self.server.http_port}" if self.server.http_port else None

    # ---- install ---------------------------------------------------------------------------

    # ---- conf ------------------------------------------------------------------------------

    def render_conf(self) -> str:
        """``neo4j.conf`` for the current settings."""
        return render_conf(self.server, home=self.layout.home, data_dir=self.layout.data_dir, space=self.space)

    def write_conf(self) -> Path:
        """(Re)write ``<home>/conf/neo4j.conf`` and create the directories it names (owner-only)."""
        lay = self.layout
        for d in (lay.home, lay.conf_dir, lay.logs_dir, lay.run_dir, lay.import_dir, lay.data_dir):
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.secure_files()
        tmp = lay.conf_file.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(self.render_conf())
        tmp.replace(lay.conf_file)
        return lay.conf_file

    def secure_files(self) -> int:
        """Make the home, the data dir and everything Neo4j wrote into them owner-only: directories
        0700, files without group/other bits (a store made before this was readable by every local
        user). Returns how many modes were changed. Symlinks (the shared ``dist/`` of tests) are
        not followed."""
        lay = self.layout
        changed = 0
        roots = [lay.home] + ([lay.data_dir] if lay.home not in lay.data_dir.parents else [])
        for root in roots:
            if not root.is_dir():
                continue
            for path in [root, *_walk_owned(root, skip={lay.dist_root})]:
                try:
                    st = path.lstat()
                except OSError:
                    continue
                if stat.S_ISLNK(st.st_mode) or not st.st_mode & 0o077:
                    continue
                mode = 0o700 if stat.S_ISDIR(st.st_mode) else stat.S_IMODE(st.st_mode) & ~0o077
                with contextlib.suppress(OSError):
                    os.chmod(path, mode)
                    changed += 1
        return changed

    # ---- status ----------------------------------------------------------------------------

    def status(self) -> ServerStatus:
        """Report whether the server runs, without changing it (a stale pid file is removed).

        ``ready`` comes from a Bolt handshake (no login), so it is cheap and never counts as
        a failed authentication.
        """
        found = self._find()
        if found.pid is None:
            msg = "not running (stale pid file removed)" if found.stale else "not running"
            return self._status_stopped(msg)
        st = self._status_running(found, "")
        if st.ready:
            st.message = "running" + (" (pid file was missing; adopted)" if found.adopted else "")
        else:
            st.message = "running, but Bolt does not answer yet (starting, or stuck: see the log)"
        return st

    # ---- start -----------------------------------------------------------------------------

    def start(self, progress: Progress | None = None) -> ServerStatus:
        """Start the server (building the distribution first if needed) and wait until Bolt
        answers and the configured password works.

        Idempotent: when this home's server already runs, waits for it to be ready and returns
        its status with ``message == "already running"``. After a crash (``kill -9``, power
        loss) a plain ``start`` recovers: Neo4j replays its transaction log and the stale pid
        file is dropped (the store lock is an OS lock that died with the process).

        On a fresh data dir the initial ``neo4j``/``neo4j`` password is changed to
        ``neo4j.password`` (at least 8 characters). A password the data dir refuses is reported
        in ``warnings``, not raised: the server itself runs.

        Raises :class:`JavaNotFound`, :class:`MavenNotFound`, :class:`PortInUse`,
        :class:`ServerStartFailed` (with the tail of the logs; the process is not left behind),
        :class:`ConfigurationError` (password too short for a fresh data dir).
        """
        lay = self.layout
        deadline = time.monotonic() + self.server.start_timeout
        with file_lock(lay.lock_file):
            found = self._find()
            if found.pid is not None:
                port = int(found.state.get("bolt_port", self.server.bolt_port))
                self._wait_for_bolt(found.pid, port, deadline, offsets=None, owned=False)
                self._password_or_generate()
                self.secure_files()
                warnings = self._ensure_password(port, deadline) + self._lockout_warning()
                st = self._status_running(found, "already running", warnings)
                return st

            java = self._java()
            lib = self.install(progress)
            generated = self._password_or_generate()
            if generated:
                _say(progress, f"Generated a Neo4j password into {self.neo4j.effective_password_file} (owner-only)")
            self._check_fresh_password()
            self._check_ports()
            if _locked_by_other_process(lay.store_lock):
                raise ServerStartFailed(
                    f"the data dir {lay.data_dir} is in use by another Neo4j process "
                    "(stop it, or set BELIEF_GRAPH_SERVER__DATA_DIR)"
                )
            browser_warnings: list[str] = []
            try:
                browser_jar = self.install_browser(progress)
            except ServerError as exc:  # the database runs without Browser rather than not at all
                browser_jar = None
                browser_warnings.append(f"Neo4j Browser is not served: {str(exc).splitlines()[0]}")
            self.write_conf()
            argv = java_command(
                java.executable,
                lib,
                self.server,
                home=lay.home,
                extra_classpath=[browser_jar] if browser_jar else [],
            )
            offsets = {p: _file_size(p) for p in (lay.neo4j_log, lay.console_log)}
            t0 = time.monotonic()
            started_at = _now()
            fd = os.open(lay.console_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(fd, "ab") as fh:
                fh.write(
                    f"--- belief-graph: starting Neo4j {lay.version} at {started_at.isoformat()}\n"
                    f"--- {' '.join(argv)}\n".encode()
                )
            offsets[lay.console_log] = _file_size(lay.console_log)
            _say(progress, f"Starting Neo4j {lay.version} on {self.bolt_uri} (data: {lay.data_dir})...")
            pid = self._spawn(argv, lay.console_log)
            log.info("started Neo4j %s as pid %d", lay.version, pid)
            state: dict[str, Any] = {
                "pid": pid,
                "version": lay.version,
                "bolt_port": self.server.bolt_port,
                "http_port": self.server.http_port,
                "browser": browser_jar is not None,
                "browser_space": self.space if browser_jar is not None else None,
                "data_dir": str(lay.data_dir),
                "home": str(lay.home),
                "java": str(java.executable),
                "java_version": java.version,
                "started_at": started_at.isoformat(),
            }
            self._write_run_files(state)
            self._wait_for_bolt(pid, self.server.bolt_port, deadline, offsets=offsets, owned=True)
            try:
                warnings = self._ensure_password(self.server.bolt_port, deadline)
            except BaseException:
                self._terminate(pid)
                raise
            warnings += browser_warnings
            if self.server.http_port and not self._wait_for_port(self.server.http_port, deadline):
                warnings.append(f"HTTP did not answer on port {self.server.http_port}")
            elapsed = time.monotonic() - t0
            log.info("Neo4j ready after %.1f s", elapsed)
            return self._status_running(_Found(pid=pid, state=state), f"started in {elapsed:.1f} s", warnings)

    # ---- stop ------------------------------------------------------------------------------

    def stop(self, *, missing_ok: bool = True, timeout: float = _STOP_TIMEOUT) -> ServerStatus:
        """Stop the server: SIGTERM to its process group, wait for a clean shutdown (Neo4j
        checkpoints; about a second), SIGKILL after ``timeout`` seconds with a warning.

        Not running is fine (``message`` says so) unless ``missing_ok=False``, which raises
        :class:`ServerNotRunning`. Data survives; the next :meth:`start` uses it.
        """
        with file_lock(self.layout.lock_file):
            found = self._find()
            if found.pid is None:
                msg = "not running (stale pid file removed)" if found.stale else "not running"
                if not missing_ok:
                    raise ServerNotRunning(msg.removeprefix("not running").strip(" ()"))
                return self._status_stopped(msg)
            pid = found.pid
            t0 = time.monotonic()
            self._signal(pid, signal.SIGTERM)
            warnings: list[str] = []
            if self._wait_exit(pid, timeout):
                msg = f"stopped in {time.monotonic() - t0:.1f} s"
            else:
                text = (
                    f"Neo4j (pid {pid}) did not stop within {timeout:g} s and was killed; "
                    "the next start replays the transaction log"
                )
                log.warning(text)
                warnings.append(text)
                self._signal(pid, signal.SIGKILL)
                self._wait_exit(pid, 10.0)
                msg = f"killed after {time.monotonic() - t0:.1f} s"
            self._remove_run_files()
            log.info("Neo4j pid %d: %s", pid, msg)
            st = self._status_stopped(msg)
            st.warnings = warnings
            return st

    # ---- logs ------------------------------------------------------------------------------

    def log_tail(self, n: int = _TAIL_LINES) -> str:
        """The last ``n`` lines of ``neo4j.log`` and of ``console.log`` (each under a
        ``==> path <==`` header; empty files are left out)."""
        lay = self.layout
        return self._format_tail({lay.neo4j_log: 0, lay.console_log: 0}, n)

    # ---- internals -------------------------------------------------------------------------

    def _format_tail(self, offsets: Mapping[Path, int], n: int) -> str:
        parts: list[str] = []
        for path, start in offsets.items():
            lines = read_tail(path, n, start)
            if lines:
                parts.append(f"==> {path} <==\n" + "\n".join(lines))
        return "\n".join(parts)

    def _status_stopped(self, message: str) -> ServerStatus:
        return ServerStatus(
            running=False,
            ready=False,
            pid=None,
            bolt_uri=self.bolt_uri,
            http_url=self.http_url,
            version=self.server.version,
            home=self.layout.home,
            data_dir=self.layout.data_dir,
            message=message,
        )

    def _status_running(self, found: _Found, message: str, warnings: Sequence[str] = ()) -> ServerStatus:
        state = found.state
        bolt_port = int(state.get("bolt_port", self.server.bolt_port))
        http_port = int(state.get("http_port", self.server.http_port))
        started = state.get("started_at")
        return ServerStatus(
            running=True,
            ready=bolt_answers(bolt_port),
            pid=found.pid,
            bolt_uri=f"bolt://{HOST}:{bolt_port}",
            http_url=f"http://{HOST}:{http_port}" if http_port else None,
            browser_url=f"http://{HOST}:{http_port}/browser/" if http_port and state.get("browser") else None,
            browser_space=state.get("browser_space") if http_port and state.get("browser") else None,
            version=str(state.get("version", self.server.version)),
            home=self.layout.home,
            data_dir=Path(state.get("data_dir", self.layout.data_dir)),
            started_at=datetime.fromisoformat(started) if isinstance(started, str) else None,
            message=message,
            warnings=list(warnings),
        )

    def _check_ports(self) -> None:
        ports = [self.server.bolt_port] + ([self.server.http_port] if self.server.http_port else [])
        for port in ports:
            if port_in_use(port):
                raise PortInUse(port, HOST)

    def _password_or_generate(self) -> bool:
        """Make sure a password is configured: when none is (no setting, no password file), generate
        one into the password file (:func:`credentials.create_password_file`). True if generated."""
        if self.neo4j.password is not None:
            return False
        from ..credentials import create_password_file, read_password_file

        path = self.neo4j.effective_password_file
        existing = read_password_file(path)  # written meanwhile by another process
        self.neo4j = self.neo4j.with_password(existing if existing is not None else create_password_file(path))
        return existing is None

    def _password(self) -> str:
        if self.neo4j.password is None:
            raise ConfigurationError("no Neo4j password configured (LocalServer.start generates one)")
        return self.neo4j.password.get_secret_value()

    def _check_fresh_password(self) -> None:
        fresh = not (self.layout.data_dir / "databases" / "system").exists()
        if fresh and self.neo4j.user == _INITIAL_USER:
            _validate_new_password(self._password())

    def _wait_for_port(self, port: int, deadline: float) -> bool:
        while True:
            try:
                with socket.create_connection((HOST, port), timeout=1.0):
                    return True
            except OSError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(_POLL_INTERVAL)

    def _wait_for_bolt(
        self,
        pid: int,
        port: int,
        deadline: float,
        *,
        offsets: Mapping[Path, int] | None,
        owned: bool,
    ) -> None:
        """Poll until Bolt answers. If the process dies, or (``owned``) the deadline passes,
        clean up and raise :class:`ServerStartFailed` with the log tail since ``offsets``."""
        lay = self.layout
        since = offsets if offsets is not None else {lay.neo4j_log: 0, lay.console_log: 0}
        while True:
            if bolt_answers(port):
                return
            if not self._pid_alive(pid):
                self._remove_run_files()
                code = self._exit_codes.get(pid)
                tail = self._format_tail(since, _TAIL_LINES)
                what = f"the Java process exited with code {code}" if code is not None else "the Java process exited"
                first = _first_error_line(tail.splitlines())
                raise ServerStartFailed(f"{what} during start" + (f": {first}" if first else ""), tail)
            if time.monotonic() >= deadline:
                tail = self._format_tail(since, _TAIL_LINES)
                timeout = self.server.start_timeout
                if not owned:
                    raise ServerStartFailed(
                        f"Neo4j (pid {pid}) runs but Bolt did not answer on port {port} within "
                        f"{timeout:g} s; stop it with `belief-graph server stop`",
                        tail,
                    )
                self._terminate(pid)
                raise ServerStartFailed(
                    f"Bolt did not answer on port {port} within {timeout:g} s, so the server was "
                    "stopped (raise BELIEF_GRAPH_SERVER__START_TIMEOUT on a slow machine)",
                    tail,
                )
            time.sleep(_POLL_INTERVAL)

    def _lockout_warning(self) -> list[str]:
        """A warning when the running server was started with a conf that keeps Neo4j's lockout
        after failed logins (one written before the conf turned it off): any local process can
        then lock the owner out until the server is restarted."""
        try:
            conf = self.layout.conf_file.read_text()
        except OSError:
            return []
        if _NO_LOCKOUT in conf.splitlines():
            return []
        return [
            "this server runs with Neo4j's lockout after failed logins (any local process can lock you "
            "out with 3 wrong logins): restart it to turn the lockout off (`belief-graph server stop`, then `start`)"
        ]

    def _ensure_password(self, port: int, deadline: float) -> list[str]:
        """Make sure ``neo4j.user``/``neo4j.password`` can log in; on a fresh data dir change the
        initial ``neo4j``/``neo4j`` password. When the password comes from the password file (not
        an explicit setting), a store still on the old fixed password (``credentials.LEGACY_PASSWORD``)
        is moved to it. Returns warnings instead of raising when the data dir has some other
        password (at most three logins are tried; the conf turns Neo4j's lockout after failed
        logins off, ``dbms.security.auth_max_failed_attempts=0``)."""
        from neo4j.exceptions import AuthError

        from ..credentials import LEGACY_PASSWORD

        uri = f"bolt://{HOST}:{port}"
        user = self.neo4j.user
        password = self._password()
        try:
            self._login(uri, user, password, deadline)
        except AuthError:
            pass
        else:
            return []
        refused = (
            f"Neo4j at {uri} refuses user {user!r} with the configured password "
            + (f"(from {self.neo4j.effective_password_file}) " if self.neo4j.password_source == "file" else "")
            + "(set BELIEF_GRAPH_NEO4J__PASSWORD to this data dir's password)"
        )
        if user != _INITIAL_USER:
            return [refused]
        try:
            self._login(uri, _INITIAL_USER, _INITIAL_PASSWORD, deadline, change_to=password)
        except AuthError:
            pass
        else:
            log.info("changed the initial password of user %r", _INITIAL_USER)
            self._login(uri, user, password, deadline)
            return []
        if self.neo4j.password_source != "file" or password == LEGACY_PASSWORD:
            return [refused]
        try:
            self._login(uri, user, LEGACY_PASSWORD, deadline, change_to=password)
        except AuthError:
            return [refused]
        self._login(uri, user, password, deadline)
        moved = (
            f"this data dir still used the old fixed password {LEGACY_PASSWORD!r}: it now uses the generated one "
            f"in {self.neo4j.effective_password_file} (clients that set BELIEF_GRAPH_NEO4J__PASSWORD={LEGACY_PASSWORD} "
            "must drop it)"
        )
        log.info(moved)
        return [moved]

    def _login(self, uri: str, user: str, password: str, deadline: float, *, change_to: str | None = None) -> None:
        """Log in (and run ``RETURN 1`` on the home database, or change the password first).
        Retries while the server is still coming up; lets ``AuthError`` through."""
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable, SessionExpired

        if change_to is not None:
            _validate_new_password(change_to)
        while True:
            try:
                with GraphDatabase.driver(uri, auth=(user, password), connection_timeout=5.0) as drv:
                    drv.verify_connectivity()
                    if change_to is not None:
                        registry = get_registry()
                        database = registry["admin.change_initial_password"].database
                        query, params = registry.bind("admin.change_initial_password", old=password, new=change_to)
                        with drv.session(database=database) as session:
                            session.run(query, params).consume()
                    else:
                        query, params = get_registry().bind("admin.ping")
                        with drv.session() as session:
                            session.run(query, params).consume()
                return
            except AuthError:
                raise
            except (ServiceUnavailable, SessionExpired, Neo4jError) as exc:
                retriable = isinstance(exc, (ServiceUnavailable, SessionExpired)) or (
                    isinstance(exc, Neo4jError) and exc.is_retryable()
                )
                if not retriable or time.monotonic() >= deadline:
                    raise ServerStartFailed(
                        f"Neo4j answers on Bolt but {'changing the password' if change_to else 'a first query'} "
                        f"failed: {exc}",
                        self.log_tail(),
                    ) from exc
                time.sleep(_POLL_INTERVAL)


_NO_LOCKOUT = "dbms.security.auth_max_failed_attempts=0"
"""The line of the rendered conf (:func:`render_conf`) that turns the lockout off."""


def _validate_new_password(password: str) -> None:
    if len(password) < _MIN_PASSWORD_LENGTH or password == _INITIAL_PASSWORD:
        raise ConfigurationError(
            f"BELIEF_GRAPH_NEO4J__PASSWORD must have at least {_MIN_PASSWORD_LENGTH} characters "
            "and not be 'neo4j': a fresh Neo4j 5 data dir needs a new password"
        )
