"""Unit tests of belief_graph.localserver that need neither Java nor Neo4j.

Java is faked with a shell script that prints a ``java -version`` banner; the process checks use
short-lived ``true``/``sleep`` children.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from belief_graph.errors import (
    ConfigurationError,
    JavaNotFound,
    MavenNotFound,
    ServerNotRunning,
)
from belief_graph.localserver import (
    ENTRY_POINT,
    ENTRY_POINT_CALVER,
    LocalServer,
    ServerStatus,
    bolt_answers,
    find_java,
    find_maven,
    java_command,
    parse_java_version,
    port_in_use,
    render_conf,
    render_pom,
)
from belief_graph.localserver.java import _jvm_size
from belief_graph.settings import Neo4jSettings, ServerSettings

pytestmark = [
    pytest.mark.unit,
    pytest.mark.skipif(sys.platform == "win32", reason="the local server is POSIX only"),
]


# ---- java -version parsing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (
            'openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment (build 17.0.15+6)\n',
            ("17.0.15", 17),
        ),
        ('java version "1.8.0_292"\nJava(TM) SE Runtime Environment\n', ("1.8.0_292", 8)),
        ('openjdk version "11.0.2" 2019-01-15', ("11.0.2", 11)),
        ('openjdk version "21" 2023-09-19', ("21", 21)),
        ('openjdk version "21-ea" 2023-09-19', ("21-ea", 21)),
        ('openjdk version "25" 2025-09-16 LTS', ("25", 25)),
        ('Picked up JAVA_TOOL_OPTIONS: -Dx=y\nopenjdk version "17.0.2"', ("17.0.2", 17)),
        ("openjdk 21.0.2 2024-01-16\nOpenJDK Runtime Environment", ("21.0.2", 21)),
    ],
)
def test_parse_java_version(output: str, expected: tuple[str, int]) -> None:
    assert parse_java_version(output) == expected


@pytest.mark.parametrize("output", ["", "command not found", "Error: could not open `jvm.cfg'"])
def test_parse_java_version_rejects_garbage(output: str) -> None:
    with pytest.raises(ValueError):
        parse_java_version(output)


# ---- find_java / find_maven with a fake java ---------------------------------------------------


def _fake_java_home(root: Path, banner: str) -> Path:
    home = root / "jdk"
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text(f"#!/bin/sh\necho '{banner}' >&2\n")  # shell builtins only: PATH may be empty
    java.chmod(java.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return home


def test_find_java_accepts_17(tmp_path: Path) -> None:
    home = _fake_java_home(tmp_path, 'openjdk version "17.0.15" 2025-04-15')
    info = find_java(home, environ={"PATH": ""})
    assert info.major == 17
    assert info.version == "17.0.15"
    assert info.executable == home / "bin" / "java"
    assert info.home == home.resolve()


def test_find_java_rejects_8(tmp_path: Path) -> None:
    home = _fake_java_home(tmp_path, 'java version "1.8.0_292"')
    with pytest.raises(JavaNotFound, match=r"1\.8\.0_292"):
        find_java(home, environ={"PATH": ""})


def test_find_java_uses_java_home_env_then_path(tmp_path: Path) -> None:
    home = _fake_java_home(tmp_path, 'openjdk version "21.0.1"')
    assert find_java(None, environ={"JAVA_HOME": str(home), "PATH": ""}).major == 21
    assert find_java(None, environ={"PATH": str(home / "bin")}).major == 21
    # a broken JAVA_HOME falls back to PATH
    env = {"JAVA_HOME": str(tmp_path / "nope"), "PATH": str(home / "bin")}
    assert find_java(None, environ=env).major == 21


def test_find_java_explicit_home_has_no_fallback(tmp_path: Path) -> None:
    good = _fake_java_home(tmp_path, 'openjdk version "17.0.1"')
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(JavaNotFound, match="does not exist"):
        find_java(empty, environ={"PATH": str(good / "bin")})


def test_find_java_nothing(tmp_path: Path) -> None:
    with pytest.raises(JavaNotFound, match="no java on PATH"):
        find_java(None, environ={"PATH": str(tmp_path)})


def test_find_maven_missing(tmp_path: Path) -> None:
    with pytest.raises(MavenNotFound):
        find_maven({"PATH": str(tmp_path)})


# ---- rendering -----------------------------------------------------------------------------------


def _conf_dict(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            assert key not in out, f"duplicate setting {key}"
            out[key] = value
    return out


def test_render_conf_defaults(tmp_path: Path) -> None:
    s = ServerSettings(home=tmp_path)
    conf = _conf_dict(render_conf(s, home=tmp_path, data_dir=tmp_path / "data"))
    assert conf["server.default_listen_address"] == "127.0.0.1"
    assert conf["server.bolt.enabled"] == "true"
    assert conf["server.bolt.listen_address"] == "127.0.0.1:7687"
    assert conf["server.http.enabled"] == "true"
    assert conf["server.http.listen_address"] == "127.0.0.1:7474"
    assert conf["server.https.enabled"] == "false"
    assert conf["dbms.usage_report.enabled"] == "false"
    assert conf["client.allow_telemetry"] == "false"
    assert conf["internal.dbms.usage_report.udc_network_enabled"] == "false"
    assert conf["server.directories.data"] == str(tmp_path / "data")
    assert conf["server.directories.logs"] == str(tmp_path / "logs")
    assert conf["server.directories.import"] == str(tmp_path / "import")
    assert conf["server.memory.heap.initial_size"] == "512m"
    assert conf["server.memory.heap.max_size"] == "512m"
    assert conf["server.memory.pagecache.size"] == "256m"
    assert "db.memory.transaction.max" not in conf  # Neo4j's default unless asked
    assert conf["dbms.security.auth_enabled"] == "true"
    assert conf["dbms.security.auth_max_failed_attempts"] == "0"  # no lockout any local process can trigger
    assert "0.0.0.0" not in "".join(conf.values())


def test_render_conf_custom_ports_and_no_http(tmp_path: Path) -> None:
    s = ServerSettings(home=tmp_path, bolt_port=17687, http_port=0, heap="1g", pagecache="64m", transaction_max="128m")
    conf = _conf_dict(render_conf(s, home=tmp_path, data_dir=tmp_path / "elsewhere"))
    assert conf["db.memory.transaction.max"] == "128m"
    assert conf["server.bolt.listen_address"] == "127.0.0.1:17687"
    assert conf["server.bolt.advertised_address"] == "127.0.0.1:17687"
    assert conf["server.http.enabled"] == "false"
    assert "server.http.listen_address" not in conf
    assert conf["server.memory.heap.max_size"] == "1g"
    assert conf["server.memory.pagecache.size"] == "64m"
    assert conf["server.directories.data"] == str(tmp_path / "elsewhere")


def test_render_conf_internal_settings_only_for_5x(tmp_path: Path) -> None:
    s = ServerSettings(home=tmp_path, version="2025.01.0")
    conf = _conf_dict(render_conf(s, home=tmp_path, data_dir=tmp_path / "data"))
    assert not any(k.startswith("internal.") for k in conf)
    assert conf["dbms.usage_report.enabled"] == "false"


def test_render_conf_rejects_line_breaks(tmp_path: Path) -> None:
    s = ServerSettings(home=tmp_path)
    with pytest.raises(ConfigurationError):
        render_conf(s, home=tmp_path, data_dir=tmp_path / "a\nserver.x=y")


def test_render_pom() -> None:
    pom = render_pom("5.26.30")
    assert "<artifactId>neo4j-server</artifactId>" in pom
    assert pom.count("<version>5.26.30</version>") == 3


@pytest.mark.parametrize(
    ("size", "jvm"),
    [
        ("512m", "512m"),
        ("512M", "512m"),
        ("1g", "1g"),
        ("512MiB", "512m"),
        ("2GB", "2g"),
        ("1024", "1024"),
        ("notasize", "notasize"),
    ],
)
def test_jvm_size(size: str, jvm: str) -> None:
    assert _jvm_size(size) == jvm


def test_java_command(tmp_path: Path) -> None:
    s = ServerSettings(home=tmp_path, heap="768MiB")
    argv = java_command(Path("/jdk/bin/java"), tmp_path / "lib", s, home=tmp_path)
    assert argv[0] == "/jdk/bin/java"
    assert "-Xms768m" in argv and "-Xmx768m" in argv
    assert argv[argv.index("-cp") + 1] == str(tmp_path / "lib" / "*")
    assert ENTRY_POINT in argv and ENTRY_POINT_CALVER not in argv
    assert f"--home-dir={tmp_path}" in argv
    assert f"--config-dir={tmp_path / 'conf'}" in argv


def test_java_command_calendar_versions_use_the_new_main_class(tmp_path: Path) -> None:
    """Neo4j 2025.01 renamed the main class (run on 2025.12.1 with Java 25: the old one is not found)."""
    s = ServerSettings(home=tmp_path, version="2025.12.1")
    argv = java_command(Path("/jdk/bin/java"), tmp_path / "lib", s, home=tmp_path)
    assert ENTRY_POINT_CALVER in argv and ENTRY_POINT not in argv


def test_calendar_versions_need_java_21(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    home = _fake_java_home(tmp_path, 'openjdk version "17.0.15" 2025-04-15')
    with pytest.raises(ConfigurationError, match=r"Neo4j 2025.12.1 needs Java 21 or newer.*17.0.15"):
        LocalServer(ServerSettings(home=tmp_path / "h", version="2025.12.1", java_home=home))._java()
    assert LocalServer(ServerSettings(home=tmp_path / "h", version="5.26.30", java_home=home))._java().major == 17
    (tmp_path / "jdk").rename(tmp_path / "jdk17")
    home25 = _fake_java_home(tmp_path, 'openjdk version "25.0.3" 2026-04-21')
    with caplog.at_level("WARNING", logger="belief_graph.localserver"):
        assert (
            LocalServer(ServerSettings(home=tmp_path / "h", version="2025.12.1", java_home=home25))._java().major == 25
        )
        assert not caplog.records  # supported there
        LocalServer(ServerSettings(home=tmp_path / "h", version="5.26.30", java_home=home25))._java()
    assert [r.getMessage() for r in caplog.records if "tested with Java 17 and 21" in r.getMessage()]


# ---- settings checks --------------------------------------------------------------------------


def test_rejects_bad_version(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="VERSION"):
        LocalServer(ServerSettings(home=tmp_path, version="latest"))


def test_rejects_same_ports(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="HTTP_PORT"):
        LocalServer(ServerSettings(home=tmp_path, bolt_port=7000, http_port=7000))


def test_layout_and_uris(tmp_path: Path) -> None:
    srv = LocalServer(ServerSettings(home=tmp_path, bolt_port=17687, http_port=0))
    assert srv.bolt_uri == "bolt://127.0.0.1:17687"
    assert srv.http_url is None
    assert srv.layout.data_dir == tmp_path.resolve() / "data"
    assert srv.layout.lib_dir == tmp_path.resolve() / "dist" / "5.26.30" / "lib"
    other = LocalServer(ServerSettings(home=tmp_path, data_dir=tmp_path / "d"))
    assert other.layout.data_dir == (tmp_path / "d").resolve()
    assert other.http_url == "http://127.0.0.1:7474"


# ---- ports and bolt probe ---------------------------------------------------------------------


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    try:
        yield s
    finally:
        s.close()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_port_in_use(listener: socket.socket) -> None:
    assert port_in_use(listener.getsockname()[1])
    assert not port_in_use(_free_port())


def test_bolt_answers(listener: socket.socket) -> None:
    port = listener.getsockname()[1]

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(20)
            conn.sendall(b"\x00\x00\x08\x05")

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    assert bolt_answers(port)
    t.join(5)
    assert not bolt_answers(_free_port())


# ---- status / stop without a server ----------------------------------------------------------


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _server(tmp_path: Path) -> LocalServer:
    return LocalServer(ServerSettings(home=tmp_path, bolt_port=_free_port(), http_port=0))


def test_status_not_running(tmp_path: Path) -> None:
    st = _server(tmp_path).status()
    assert not st.running and not st.ready and st.pid is None
    assert st.message == "not running"
    json.dumps(st.to_dict())


def test_status_removes_stale_pid_file(tmp_path: Path) -> None:
    srv = _server(tmp_path)
    srv.layout.run_dir.mkdir(parents=True)
    srv.layout.pid_file.write_text(f"{_dead_pid()}\n")
    srv.layout.state_file.write_text(json.dumps({"pid": _dead_pid(), "version": "5.26.30"}))
    st = srv.status()
    assert not st.running
    assert st.message == "not running (stale pid file removed)"
    assert not srv.layout.pid_file.exists() and not srv.layout.state_file.exists()
    assert srv.status().message == "not running"


def test_pid_of_a_foreign_process_is_stale(tmp_path: Path) -> None:
    """A reused pid (alive, but not this home's Neo4j) must not be taken for the server."""
    srv = _server(tmp_path)
    srv.layout.run_dir.mkdir(parents=True)
    with subprocess.Popen(["sleep", "30"]) as proc:
        try:
            srv.layout.pid_file.write_text(f"{proc.pid}\n")
            st = srv.status()
            assert not st.running
            assert "stale" in st.message
        finally:
            proc.kill()


def test_stop_when_not_running(tmp_path: Path) -> None:
    srv = _server(tmp_path)
    assert srv.stop().message == "not running"
    with pytest.raises(ServerNotRunning):
        srv.stop(missing_ok=False)


def test_server_status_to_dict(tmp_path: Path) -> None:
    st = ServerStatus(
        running=True,
        ready=True,
        pid=1,
        bolt_uri="bolt://127.0.0.1:1",
        version="5.26.30",
        home=tmp_path,
        data_dir=tmp_path / "data",
        message="running",
    )
    d = st.to_dict()
    assert d["home"] == str(tmp_path) and d["http_url"] is None and d["warnings"] == []
    json.dumps(d)


# ---- start's early checks (no Java process is started) ---------------------------------------


def _fake_installed(srv: LocalServer) -> None:
    srv.layout.lib_dir.mkdir(parents=True)
    srv.layout.marker.write_text("{}")


def test_start_rejects_short_password_on_fresh_data_dir(tmp_path: Path) -> None:
    jdk = _fake_java_home(tmp_path, 'openjdk version "17.0.15"')
    s = ServerSettings(home=tmp_path / "home", java_home=jdk, bolt_port=_free_port(), http_port=0)
    srv = LocalServer(s, Neo4jSettings(password="short"))
    _fake_installed(srv)
    with pytest.raises(ConfigurationError, match="at least 8"):
        srv.start()
    assert not srv.layout.pid_file.exists()


def test_install_needs_maven_only_when_not_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jdk = _fake_java_home(tmp_path, 'openjdk version "17.0.15"')
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    srv = LocalServer(ServerSettings(home=tmp_path / "home", java_home=jdk))
    with pytest.raises(MavenNotFound):
        srv.install()
    _fake_installed(srv)
    assert srv.install() == srv.layout.lib_dir


def test_start_without_java(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    empty = tmp_path / "jdk"
    empty.mkdir()
    srv = LocalServer(ServerSettings(home=tmp_path / "home", java_home=empty))
    with pytest.raises(JavaNotFound):
        srv.start()
    assert os.path.exists(tmp_path / "home" / "run" / "server.lock")
    assert not srv.layout.pid_file.exists()
