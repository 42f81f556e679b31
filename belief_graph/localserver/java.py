"""Java and Maven discovery, and the ``java`` command line that runs Neo4j."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import JavaNotFound, MavenNotFound
from ..settings import ServerSettings

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ENTRY_POINT_CALVER = "org.neo4j.server.Neo4jCommunity"
"""The main class from Neo4j 2025.01 on (calendar versions); 5.x has :data:`ENTRY_POINT`."""
_ENTRY_POINTS = (ENTRY_POINT, ENTRY_POINT_CALVER)
MIN_JAVA_MAJOR = 17
_TESTED_JAVA_MAJORS = (17, 21)
_TESTED_JAVA_MAJORS_CALVER = (21, 25)  # Java 25 is supported from Neo4j 2025.10 on

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


def run_maven(mvn: Path, java_home: Path, workdir: Path, args: Sequence[str]) -> tuple[int, Path]:
    """Run ``mvn -q -B <args>`` in ``workdir`` with ``JAVA_HOME`` set, no input, its output in
    ``workdir/mvn.log``; return the exit code and the log's path. Every Maven fetch of the local
    install (the Neo4j distribution, cypher-shell, Neo4j Browser) goes through here."""
    log_file = workdir / "mvn.log"
    with open(log_file, "wb") as out:
        rc = subprocess.run(
            [str(mvn), "-q", "-B", *args],
            cwd=workdir,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=dict(os.environ, JAVA_HOME=str(java_home)),
            check=False,
        ).returncode
    return rc, log_file


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
