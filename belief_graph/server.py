"""Run a real local Neo4j Community server without Docker (``belief-graph server ...``).

Neo4j is not downloaded as a tarball: its jars are fetched once from Maven Central with
``mvn dependency:copy-dependencies`` into ``<home>/dist/<version>/lib`` and the server is started
with plain ``java -cp "<lib>/*" org.neo4j.server.CommunityEntryPoint``. Everything else lives under
``<home>`` too::

    <home>/
      dist/<version>/lib/*.jar   the distribution (built once, ~123 MB; ``COMPLETE`` marks it done)
      dist/<version>/COMPLETE    written last; a distribution without it is rebuilt
      conf/neo4j.conf            regenerated from settings on every start (edits are overwritten)
      data/                      databases and transaction logs (``ServerSettings.data_dir``)
      logs/neo4j.log             Neo4j's user log; debug.log next to it
      logs/console.log           the JVM's stdout/stderr (JVM and configuration errors land here)
      run/neo4j.pid              the server's pid (plain text)
      run/server.json            pid, version, ports, data dir, start time of the running server
      import/                    the only directory ``LOAD CSV FROM 'file:///...'`` may read

The server listens on 127.0.0.1 only, with authentication on, the usage report (the only
phone-home in Neo4j 5) off and the browser/client telemetry hint off, so no traffic leaves the
machine. The HTTP connector (Neo4j Browser) answers cross-origin requests for its own origin only
(``dbms.security.http_access_control_allow_origin``; Neo4j's default ``*`` let any web page the
user visits call the query API). A fresh data dir's ``neo4j``/``neo4j`` password is replaced by the
configured one on the first start; when none is configured, a random one is generated into the
password file first (:mod:`belief_graph.credentials`). The home and data directories are
owner-only (0700) and Neo4j runs with umask 077, so store files, logs and the conf are not
readable by other users.

Typical use::

    from belief_graph.settings import load_settings
    from belief_graph.server import LocalServer

    s = load_settings()
    srv = LocalServer(s.server, s.neo4j)
    print(srv.start().message)      # "started in 11.2 s" / "already running"
    ...
    srv.stop()

The module only logs (``logging.getLogger("belief_graph.server")``); callers that want progress
lines (the CLI, with rich) pass a ``progress`` callback to :meth:`LocalServer.install` /
:meth:`LocalServer.start`. POSIX only (Linux, macOS): processes are managed with sessions and
signals.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .db.registry import get_registry
from .errors import (
    ConfigurationError,
    JavaNotFound,
    MavenNotFound,
    PortInUse,
    ServerError,
    ServerNotRunning,
    ServerStartFailed,
)
from .settings import Neo4jSettings, ServerSettings

__all__ = [
    "ENTRY_POINT",
    "ENTRY_POINT_CALVER",
    "HOST",
    "MIN_JAVA_MAJOR",
    "JavaInfo",
    "LocalServer",
    "ServerLayout",
    "ServerStatus",
    "bolt_answers",
    "find_java",
    "find_maven",
    "java_command",
    "parse_java_version",
    "port_in_use",
    "render_conf",
    "render_pom",
]

log = logging.getLogger(__name__)

Progress = Callable[[str], None]
"""Receives one human-readable line per step (``install``/``start``); the module never prints."""

HOST = "127.0.0.1"
"""The only address the server listens on."""

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ENTRY_POINT_CALVER = "org.neo4j.server.Neo4jCommunity"
"""The main class from Neo4j 2025.01 on (calendar versions); 5.x has :data:`ENTRY_POINT`."""
_ENTRY_POINTS = (ENTRY_POINT, ENTRY_POINT_CALVER)
MIN_JAVA_MAJOR = 17
_TESTED_JAVA_MAJORS = (17, 21)
_TESTED_JAVA_MAJORS_CALVER = (21, 25)  # Java 25 is supported from Neo4j 2025.10 on
_STOP_TIMEOUT = 60.0
_POLL_INTERVAL = 0.25
_TAIL_LINES = 40
_INITIAL_USER = "neo4j"
_INITIAL_PASSWORD = "neo4j"
_MIN_PASSWORD_LENGTH = 8  # dbms.security.auth_minimum_password_length default in Neo4j 5

# JVM options of the official 5.x launcher (bin/neo4j + default neo4j.conf), minus the ones that
# only make sense for big production heaps (AlwaysPreTouch) or are experimental VM flags.
JVM_OPTIONS: tuple[str, ...] = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+DisableExplicitGC",
    "-XX:+ExitOnOutOfMemoryError",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
)

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


# --------------------------------------------------------------------------------------------
# Java and Maven
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JavaInfo:
    """A usable ``java`` executable."""

    executable: Path
    version: str
    """As printed by ``java -version``, e.g. ``17.0.15``."""
    major: int

    @property
    def home(self) -> Path:
        """The JDK/JRE directory (``<home>/bin/java``); used as ``JAVA_HOME`` for Maven."""
        return self.executable.resolve().parent.parent


def parse_java_version(output: str) -> tuple[str, int]:
    """Parse the output of ``java -version`` (or ``--version``) into ``(version, major)``.

    Handles the pre-9 scheme (``1.8.0_292`` is major 8) and early-access suffixes
    (``21-ea`` is 21). Raises :class:`ValueError` when no version is found.

    >>> parse_java_version('openjdk version "17.0.15" 2025-04-15')
    ('17.0.15', 17)
    >>> parse_java_version('java version "1.8.0_292"')
    ('1.8.0_292', 8)
    """
    m = re.search(r'version\s+"([^"]+)"', output)
    if m is None:
        # `java --version` style: "openjdk 21.0.2 2024-01-16"
        m = re.search(r"(?:openjdk|java)\s+(\d+(?:[.\-+_][0-9A-Za-z.\-+_]*)?)(?:\s|$)", output)
    if m is None:
        raise ValueError(f"no Java version in {output.strip()[:200]!r}")
    version = m.group(1)
    parts = re.match(r"(\d+)(?:\.(\d+))?", version)
    if parts is None:
        raise ValueError(f"unrecognised Java version {version!r}")
    major = int(parts.group(1))
    if major == 1 and parts.group(2) is not None:
        major = int(parts.group(2))
    return version, major


def _java_candidates(java_home: Path | None, environ: Mapping[str, str]) -> list[Path]:
    exe = "java.exe" if sys.platform == "win32" else "java"
    if java_home is not None:
        return [Path(java_home).expanduser() / "bin" / exe]  # explicit setting: no fallback
    found: list[Path] = []
    env_home = environ.get("JAVA_HOME")
    if env_home:
        found.append(Path(env_home).expanduser() / "bin" / exe)
    on_path = shutil.which("java", path=environ.get("PATH", ""))
    if on_path:
        found.append(Path(on_path))
    return found


def find_java(java_home: Path | None = None, environ: Mapping[str, str] | None = None) -> JavaInfo:
    """Find Java 17+ and return it.

    Order: ``java_home`` (``ServerSettings.java_home``; when set, nothing else is tried), then
    ``$JAVA_HOME/bin/java``, then ``java`` on ``PATH``. Raises :class:`JavaNotFound` when none
    exists, none runs, or the first one that runs is older than 17 (what a given Neo4j version
    needs beyond that is checked by ``LocalServer._java``).
    """
    env = os.environ if environ is None else environ
    candidates = _java_candidates(java_home, env)
    problems: list[str] = []
    for exe in candidates:
        if not (exe.is_file() and os.access(exe, os.X_OK)):
            problems.append(f"{exe} does not exist")
            continue
        try:
            proc = subprocess.run(
                [str(exe), "-version"],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
            version, major = parse_java_version(proc.stderr + proc.stdout)
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            problems.append(f"{exe} -version failed: {exc}")
            continue
        if major < MIN_JAVA_MAJOR:
            raise JavaNotFound(f"{exe} is Java {version}")
        return JavaInfo(executable=exe, version=version, major=major)
    if not candidates:
        where = "no java on PATH and JAVA_HOME is not set"
    else:
        where = "; ".join(problems)
    raise JavaNotFound(where)


def find_maven(environ: Mapping[str, str] | None = None) -> Path:
    """Return the ``mvn`` executable on ``PATH`` or raise :class:`MavenNotFound`."""
    env = os.environ if environ is None else environ
    found = shutil.which("mvn", path=env.get("PATH", ""))
    if found is None:
        raise MavenNotFound()
    return Path(found)


# --------------------------------------------------------------------------------------------
# Rendering (pure)
# --------------------------------------------------------------------------------------------


def render_pom(version: str) -> str:
    """The throw-away ``pom.xml`` whose dependencies are the Neo4j Community server."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by belief-graph: `mvn dependency:copy-dependencies` fetches Neo4j {version}. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>belief-graph</groupId>
  <artifactId>neo4j-community-dist</artifactId>
  <version>{version}</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.neo4j.app</groupId>
      <artifactId>neo4j-server</artifactId>
      <version>{version}</version>
    </dependency>
    <dependency>
      <groupId>org.neo4j</groupId>
      <artifactId>neo4j</artifactId>
      <version>{version}</version>
    </dependency>
  </dependencies>
</project>
"""


def _conf_path(p: Path) -> str:
    s = str(p)
    if "\n" in s or "\r" in s:
        raise ConfigurationError(f"path {s!r} contains a line break; Neo4j cannot use it")
    return s


def render_conf(server: ServerSettings, *, home: Path, data_dir: Path, space: str = "default") -> str:
    """Render ``neo4j.conf`` for ``server`` (a pure function; see :class:`ServerLayout`).

    Listens on 127.0.0.1 only; HTTP is off when ``http_port == 0`` and otherwise answers CORS for
    its own origin only; authentication on; the usage
    report off (also at the network level) and clients told not to send telemetry, so nothing
    leaves the machine. The Bolt shutdown quiet period is set to 0 so that ``stop`` takes about
    a second instead of ten.
    """
    home = Path(home)
    http = server.http_port != 0
    lines = [
        "# Generated by belief-graph on every `belief-graph server start`.",
        "# Edits are overwritten: change BELIEF_GRAPH_SERVER__* settings instead.",
        "",
        f"server.default_listen_address={HOST}",
        f"server.default_advertised_address={HOST}",
        "server.bolt.enabled=true",
        f"server.bolt.listen_address={HOST}:{server.bolt_port}",
        f"server.bolt.advertised_address={HOST}:{server.bolt_port}",
        f"server.http.enabled={'true' if http else 'false'}",
    ]
    if http:
        lines += [
            f"server.http.listen_address={HOST}:{server.http_port}",
            f"server.http.advertised_address={HOST}:{server.http_port}",
            "# CORS: only the connector's own origin (Neo4j Browser served from it); the default '*'",
            "# lets any web page in the user's browser call the query API.",
            f"dbms.security.http_access_control_allow_origin=http://{HOST}:{server.http_port}",
        ]
    if http and server.browser:
        from .browser import post_connect_cmd

        lines += [
            "# Neo4j Browser: the belief_graph style and guide on login; no remote content.",
            f"browser.post_connect_cmd={post_connect_cmd(space, f'http://{HOST}:{server.http_port}')}",
            "browser.remote_content_hostname_whitelist=localhost,127.0.0.1",
        ]
    lines += [
        "server.https.enabled=false",
        "",
        "# No traffic leaves the machine.",
        "dbms.usage_report.enabled=false",
        "client.allow_telemetry=false",
        "",
        f"server.directories.data={_conf_path(data_dir)}",
        f"server.directories.logs={_conf_path(home / 'logs')}",
        f"server.directories.import={_conf_path(home / 'import')}",
        f"server.directories.run={_conf_path(home / 'run')}",
        "",
        f"server.memory.heap.initial_size={server.heap}",
        f"server.memory.heap.max_size={server.heap}",
        f"server.memory.pagecache.size={server.pagecache}",
        "",
        "dbms.security.auth_enabled=true",
    ]
    if server.version.startswith("5."):
        lines += [
            "",
            "# Internal 5.x settings: the first also cuts off the UDC network client; the Bolt",
            "# server otherwise waits a 5 s netty quiet period (twice) on shutdown.",
            "internal.dbms.usage_report.udc_network_enabled=false",
            "internal.dbms.bolt.netty_server_shutdown_quiet_period=0",
        ]
    return "\n".join(lines) + "\n"


_SIZE_RE = re.compile(r"^\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


def _jvm_size(size: str) -> str:
    """``512m``/``512MB``/``512MiB`` -> ``512m`` for ``-Xmx``; anything else unchanged (the JVM
    then refuses it and the start fails with its message)."""
    m = _SIZE_RE.match(size)
    if m is None:
        return size
    return m.group(1) + m.group(2).lower()


def _calver(version: str) -> bool:
    """Neo4j 2025.01 and later (calendar versions: another main class, Java 21+)."""
    return int(version.split(".")[0]) >= 2025


def entry_point(version: str) -> str:
    """The server's main class for this Neo4j version."""
    return ENTRY_POINT_CALVER if _calver(version) else ENTRY_POINT


def min_java_major(version: str) -> int:
    """The oldest Java this Neo4j version runs on: 17 for 5.x, 21 from 2025.01 on."""
    return 21 if _calver(version) else MIN_JAVA_MAJOR


def java_command(
    java: Path, lib_dir: Path, server: ServerSettings, *, home: Path, extra_classpath: Sequence[Path] = ()
) -> list[str]:
    """The argv that runs the server (heap from ``server.heap``, both ``-Xms`` and ``-Xmx``);
    ``extra_classpath`` (the Browser jar) comes after the distribution's jars."""
    heap = _jvm_size(server.heap)
    return [
        str(java),
        f"-Xms{heap}",
        f"-Xmx{heap}",
        *JVM_OPTIONS,
        "-cp",
        os.pathsep.join([str(Path(lib_dir) / "*"), *map(str, extra_classpath)]),
        entry_point(server.version),
        f"--home-dir={home}",
        f"--config-dir={Path(home) / 'conf'}",
    ]


# --------------------------------------------------------------------------------------------
# Network probes
# --------------------------------------------------------------------------------------------


def port_in_use(port: int, host: str = HOST) -> bool:
    """True when something listens on (or holds) ``host:port``.

    Binds with ``SO_REUSEADDR`` (so sockets in TIME_WAIT do not count) and also tries to
    connect (so a listener that shares the port with ``SO_REUSEPORT`` is found too).
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return True
            raise
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


_BOLT_HANDSHAKE = (
    b"\x60\x60\xb0\x17"  # magic
    + b"\x00\x08\x08\x05"  # 5.8 down to 5.0
    + b"\x00\x00\x04\x04"  # 4.4
    + b"\x00\x00\x00\x00" * 2
)


def bolt_answers(port: int, host: str = HOST, timeout: float = 1.0) -> bool:
    """True when a Bolt server answers the protocol handshake on ``host:port``.

    No authentication is attempted, so polling never counts towards Neo4j's failed-login limit.
    """
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(_BOLT_HANDSHAKE)
            reply = b""
            while len(reply) < 4:
                chunk = s.recv(4 - len(reply))
                if not chunk:
                    return False
                reply += chunk
            return True
    except OSError:
        return False


# --------------------------------------------------------------------------------------------
# Files and processes
# --------------------------------------------------------------------------------------------


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
def _file_lock(path: Path) -> Iterator[None]:
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


def _cmdline(pid: int) -> str | None:
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


def _read_tail(path: Path, n: int, start: int = 0) -> list[str]:
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


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


class LocalServer:
    """A Neo4j Community server under ``server.home``, managed through files in ``<home>/run``.

    Every method is safe to call from several processes: ``start`` and ``stop`` serialize on
    ``<home>/run/server.lock``, ``install`` on ``<home>/dist/.install.lock``. The server outlives
    the Python process that started it; any later ``LocalServer`` for the same home finds it.

    ``neo4j`` supplies the password (and user) the server is set up with; its ``uri`` is not
    used — the server is always ``bolt://127.0.0.1:<server.bolt_port>`` (:attr:`bolt_uri`).
    """

    def __init__(
        self, server: ServerSettings, neo4j: Neo4jSettings | None = None, *, space: str = "default"
    ) -> None:
        if not _VERSION_RE.match(server.version):
            raise ConfigurationError(
                f"BELIEF_GRAPH_SERVER__VERSION: {server.version!r} is not a Neo4j version like 5.26.30"
            )
        if server.http_port != 0 and server.http_port == server.bolt_port:
            raise ConfigurationError(
                f"BELIEF_GRAPH_SERVER__HTTP_PORT: {server.http_port} is also the Bolt port"
            )
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

    def is_installed(self) -> bool:
        """True when ``<home>/dist/<version>`` is complete (its ``COMPLETE`` marker exists)."""
        lay = self.layout
        return lay.marker.is_file() and lay.lib_dir.is_dir()

    def _java(self) -> JavaInfo:
        """:func:`find_java`, checked against what this Neo4j version needs (21 from 2025.01 on).

        Raises:
            JavaNotFound: no usable Java; ConfigurationError: the Java found is too old for
                ``server.version``.
        """
        java = find_java(self.server.java_home)
        need = min_java_major(self.server.version)
        if java.major < need:
            raise ConfigurationError(
                f"Neo4j {self.server.version} needs Java {need} or newer, and {java.executable} is Java "
                f"{java.version}: set BELIEF_GRAPH_SERVER__JAVA_HOME to a JDK {need}+ (or use a 5.x version)"
            )
        tested = _TESTED_JAVA_MAJORS if need == MIN_JAVA_MAJOR else _TESTED_JAVA_MAJORS_CALVER
        if java.major not in tested:
            log.warning("%s is Java %s; Neo4j %s is tested with Java %s", java.executable, java.version,
                        self.server.version, " and ".join(map(str, tested)))
        return java

    def install(self, progress: Progress | None = None) -> Path:
        """Build the distribution once and return its ``lib`` directory.

        Runs ``mvn -q -B dependency:copy-dependencies`` for ``org.neo4j.app:neo4j-server`` and
        ``org.neo4j:neo4j`` in a staging directory, moves the jars into place and writes the
        ``COMPLETE`` marker last, so an interrupted download is redone, never half-used. Maven's
        own cache (``~/.m2``) makes later builds (other versions, other homes) fast.

        Raises :class:`JavaNotFound`, :class:`MavenNotFound` (only when the distribution is not
        built yet) or :class:`ServerError` when Maven fails (its log tail is in the message).
        """
        lay = self.layout
        if self.is_installed():
            return lay.lib_dir
        with _file_lock(lay.dist_root / ".install.lock"):
            if self.is_installed():  # another process finished it while we waited
                return lay.lib_dir
            java = self._java()
            mvn = find_maven()
            staging = lay.dist_root / f".{lay.version}.partial"
            shutil.rmtree(staging, ignore_errors=True)
            staging.mkdir(parents=True)
            (staging / "pom.xml").write_text(render_pom(lay.version))
            _say(
                progress,
                f"Fetching Neo4j {lay.version} from Maven Central into {lay.dist_dir} "
                "(about 120 MB, once)...",
            )
            t0 = time.monotonic()
            mvn_log = staging / "mvn.log"
            env = dict(os.environ, JAVA_HOME=str(java.home))
            cmd = [str(mvn), "-q", "-B", "dependency:copy-dependencies", "-DoutputDirectory=lib"]
            log.info("running %s in %s", " ".join(cmd), staging)
            with open(mvn_log, "wb") as out:
                rc = subprocess.run(
                    cmd, cwd=staging, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    env=env, check=False,
                ).returncode
            server_jar = staging / "lib" / f"neo4j-server-{lay.version}.jar"
            if rc != 0 or not server_jar.is_file():
                tail = "\n".join(_read_tail(mvn_log, _TAIL_LINES))
                why = f"exit code {rc}" if rc != 0 else f"{server_jar.name} missing"
                raise ServerError(
                    f"mvn could not fetch Neo4j {lay.version} ({why}; is Maven Central "
                    f"reachable and the version right?); full log: {mvn_log}\n{tail}".rstrip()
                )
            jars = sorted((staging / "lib").glob("*.jar"))
            size = sum(j.stat().st_size for j in jars)
            shutil.rmtree(lay.dist_dir, ignore_errors=True)  # a half-finished earlier attempt
            lay.dist_dir.mkdir(parents=True)
            (staging / "lib").rename(lay.lib_dir)
            (staging / "pom.xml").rename(lay.dist_dir / "pom.xml")
            marker = {
                "version": lay.version,
                "jars": len(jars),
                "bytes": size,
                "installed_at": _now().isoformat(),
            }
            tmp = lay.marker.with_suffix(".tmp")
            tmp.write_text(json.dumps(marker, indent=2) + "\n")
            tmp.replace(lay.marker)
            shutil.rmtree(staging, ignore_errors=True)
            elapsed = time.monotonic() - t0
            log.info("installed Neo4j %s: %d jars, %d bytes in %.1f s", lay.version, len(jars), size, elapsed)
            _say(
                progress,
                f"Neo4j {lay.version} ready: {len(jars)} jars, {size / 1e6:.0f} MB in {elapsed:.0f} s",
            )
        return lay.lib_dir

    @property
    def serves_browser(self) -> bool:
        """Browser is on (``server.browser``) and HTTP is enabled."""
        return bool(self.server.browser and self.server.http_port)

    def install_browser(self, progress: Progress | None = None) -> Path | None:
        """Fetch Neo4j Browser once (when it is on) and return the jar the server runs: the Browser
        with the guide and style of :mod:`belief_graph.browser`. ``None`` when Browser is off."""
        if not self.serves_browser:
            return None
        from .browser import BrowserFiles, overlay_files

        files = BrowserFiles(self.layout.home, self.server.browser_version)
        with _file_lock(self.layout.dist_root / ".install.lock"):
            if not files.is_installed():
                files.fetch(self._java().home, find_maven(), progress)
            return files.write_overlay(overlay_files(get_registry(), self.space))

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
        with _file_lock(lay.lock_file):
            found = self._find()
            if found.pid is not None:
                port = int(found.state.get("bolt_port", self.server.bolt_port))
                self._wait_for_bolt(found.pid, port, deadline, offsets=None, owned=False)
                self._password_or_generate()
                self.secure_files()
                warnings = self._ensure_password(port, deadline)
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
                java.executable, lib, self.server, home=lay.home,
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
            return self._status_running(
                _Found(pid=pid, state=state), f"started in {elapsed:.1f} s", warnings
            )

    # ---- stop ------------------------------------------------------------------------------

    def stop(self, *, missing_ok: bool = True, timeout: float = _STOP_TIMEOUT) -> ServerStatus:
        """Stop the server: SIGTERM to its process group, wait for a clean shutdown (Neo4j
        checkpoints; about a second), SIGKILL after ``timeout`` seconds with a warning.

        Not running is fine (``message`` says so) unless ``missing_ok=False``, which raises
        :class:`ServerNotRunning`. Data survives; the next :meth:`start` uses it.
        """
        with _file_lock(self.layout.lock_file):
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
            lines = _read_tail(path, n, start)
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

    def _status_running(
        self, found: _Found, message: str, warnings: Sequence[str] = ()
    ) -> ServerStatus:
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
            version=str(state.get("version", self.server.version)),
            home=self.layout.home,
            data_dir=Path(state.get("data_dir", self.layout.data_dir)),
            started_at=datetime.fromisoformat(started) if isinstance(started, str) else None,
            message=message,
            warnings=list(warnings),
        )

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
        cmd = _cmdline(pid)
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
        conf = dict(
            line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#")
        )
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
        try:
            wpid, wstatus = os.waitpid(pid, os.WNOHANG)  # reaps it if it is our dead child
        except ChildProcessError:
            pass  # not our child
        except OSError:
            return False
        else:
            if wpid == 0:
                return True
            self._exit_codes[pid] = os.waitstatus_to_exitcode(wstatus)
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return not _is_zombie(pid)

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
                    list(argv), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            return proc.pid
        except OSError as exc:
            raise ServerStartFailed(f"could not run {argv[0]}: {exc}") from exc
        finally:
            os.umask(old_umask)

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
        from .credentials import create_password_file, read_password_file

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

    def _ensure_password(self, port: int, deadline: float) -> list[str]:
        """Make sure ``neo4j.user``/``neo4j.password`` can log in; on a fresh data dir change the
        initial ``neo4j``/``neo4j`` password. When the password comes from the password file (not
        an explicit setting), a store still on the old fixed password (``credentials.LEGACY_PASSWORD``)
        is moved to it. Returns warnings instead of raising when the data dir has some other
        password (at most three logins are tried: Neo4j locks the user after 3 failures, so a
        failing store is locked for a few seconds, ``dbms.security.auth_lock_time``)."""
        from neo4j.exceptions import AuthError

        from .credentials import LEGACY_PASSWORD

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

    def _login(
        self, uri: str, user: str, password: str, deadline: float, *, change_to: str | None = None
    ) -> None:
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
                        query, params = registry.bind(
                            "admin.change_initial_password", old=password, new=change_to
                        )
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


def _walk_owned(root: Path, skip: set[Path]) -> Iterator[Path]:
    """Every path below ``root`` without following symlinks, leaving out the ``skip`` subtrees."""
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d not in skip]
        for name in dirnames + filenames:
            yield here / name


def _validate_new_password(password: str) -> None:
    if len(password) < _MIN_PASSWORD_LENGTH or password == _INITIAL_PASSWORD:
        raise ConfigurationError(
            f"BELIEF_GRAPH_NEO4J__PASSWORD must have at least {_MIN_PASSWORD_LENGTH} characters "
            "and not be 'neo4j': a fresh Neo4j 5 data dir needs a new password"
        )


def _say(progress: Progress | None, line: str) -> None:
    log.info(line)
    if progress is not None:
        progress(line)


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)
