"""The threat model for local users (docs/security.md, "Local users"), claim by claim, against a real
local server: another user or process on the machine that does not hold the password file.

One server for the module, in a temporary home on a free port with HTTP on (as by default) and the
password generated into a temporary password file, so it never touches the shared test server.
"""

from __future__ import annotations

import base64
import ipaddress
import os
import socket
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError

from belief_graph.localserver import LocalServer, find_java
from belief_graph.settings import Neo4jSettings, ServerSettings, load_settings

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(sys.platform == "win32", reason="the local server is POSIX only"),
]

WRONG_LOGINS = 10  # Neo4j's default lockout starts after 3


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    shared = load_settings().server
    try:
        find_java(shared.java_home)
        LocalServer(shared).install()
    except Exception as exc:
        pytest.fail(f"cannot build the local Neo4j distribution: {exc}", pytrace=False)
    root = tmp_path_factory.mktemp("local-users")
    home = root / "home"
    home.mkdir()
    (home / "dist").symlink_to(Path(shared.home).expanduser().resolve() / "dist", target_is_directory=True)
    srv = LocalServer(
        ServerSettings(home=home, bolt_port=_free_port(), http_port=_free_port(), start_timeout=90.0),
        Neo4jSettings(password_file=root / "config" / "belief-graph" / "neo4j-password"),
    )
    st = srv.start()
    assert st.ready and st.warnings == [], st
    yield srv
    srv.stop()


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def _http_query(srv: LocalServer, user: str, password: str) -> int:
    """POST a query to the HTTP query API with basic auth; the HTTP status."""
    req = urllib.request.Request(
        f"{srv.http_url}/db/neo4j/query/v2",
        data=b'{"statement": "RETURN 1"}',
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode(),
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _owner_cli(srv: LocalServer, *args: str) -> subprocess.CompletedProcess[str]:
    """The owner's ``belief-graph`` with the password from the password file, as installed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=srv.bolt_uri,
        BELIEF_GRAPH_NEO4J__PASSWORD_FILE=str(srv.neo4j.effective_password_file),
    )
    exe = str(Path(sys.executable).with_name("belief-graph"))
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env, timeout=300)


def _listening_addresses(pid: int) -> list[tuple[str, int]]:
    """(address, port) of every TCP socket the process ``pid`` listens on (Linux ``/proc``)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    out = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state != "0A" or inode not in inodes:  # 0A: LISTEN
                continue
            hex_addr, _, hex_port = local.partition(":")
            # /proc prints each 32-bit word of the address in host (little-endian) order
            raw = b"".join(bytes.fromhex(hex_addr[i : i + 8])[::-1] for i in range(0, len(hex_addr), 8))
            addr = ipaddress.ip_address(raw)
            if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
                addr = addr.ipv4_mapped
            out.append((str(addr), int(hex_port, 16)))
    return out


@pytest.mark.timeout(300)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the listening sockets from /proc")
def test_listeners_are_bound_to_loopback_only(server: LocalServer) -> None:
    """Other machines reach nothing: every socket the Neo4j process listens on is on 127.0.0.1
    (Bolt and HTTP, nothing else), whatever the conf says."""
    pid = server.status().pid
    assert pid is not None
    listening = _listening_addresses(pid)
    assert sorted(port for _, port in listening) == sorted([server.server.bolt_port, server.server.http_port])
    assert all(ipaddress.ip_address(addr).is_loopback for addr, _ in listening), listening


@pytest.mark.timeout(300)
def test_password_file_is_owner_only(server: LocalServer) -> None:
    """The generated password is long and random, in a file only its owner can read (0600, in a
    0700 directory); the home holding the store, logs and conf is 0700 too."""
    pw_file = server.neo4j.effective_password_file
    assert _mode(pw_file) == 0o600 and _mode(pw_file.parent) == 0o700
    assert pw_file.stat().st_uid == os.getuid()
    assert len(pw_file.read_text().strip()) == 32  # secrets.token_urlsafe(24): 192 bits
    assert _mode(server.layout.home) == 0o700 and _mode(server.layout.data_dir) == 0o700


@pytest.mark.timeout(300)
def test_without_the_password_http_and_bolt_answer_nothing(server: LocalServer) -> None:
    """Without the password a local process gets a refusal over HTTP (401) and Bolt (AuthError),
    no data."""
    assert _http_query(server, "neo4j", "not-the-password") == 401
    with pytest.raises(AuthError), GraphDatabase.driver(server.bolt_uri, auth=("neo4j", "not-the-password")) as drv:
        drv.verify_connectivity()


@pytest.mark.timeout(300)
def test_failed_logins_do_not_lock_the_owner_out(server: LocalServer) -> None:
    """No lockout denial of service: wrong logins over HTTP and over Bolt, far more than Neo4j's
    default lockout allows (3, then every login refused for 5 s), and the owner's very next call
    succeeds — through the driver and through the CLI."""
    assert server.neo4j.password is not None
    password = server.neo4j.password.get_secret_value()
    statuses = [_http_query(server, "neo4j", f"wrong-{i}") for i in range(WRONG_LOGINS)]
    assert statuses == [401] * WRONG_LOGINS  # with the lockout the third answered 429
    for i in range(WRONG_LOGINS):
        with pytest.raises(AuthError), GraphDatabase.driver(server.bolt_uri, auth=("neo4j", f"wrong-{i}")) as drv:
            drv.verify_connectivity()
    assert _http_query(server, "neo4j", password) in (200, 202)
    with GraphDatabase.driver(server.bolt_uri, auth=("neo4j", password)) as drv:
        assert drv.execute_query("RETURN 1 AS one").records[0]["one"] == 1
    for i in range(WRONG_LOGINS):
        _http_query(server, "neo4j", f"wrong-again-{i}")
    done = _owner_cli(server, "db", "stats", "--json")
    assert done.returncode == 0, done.stderr


@pytest.mark.timeout(300)
def test_start_names_a_running_server_that_still_has_the_lockout(server: LocalServer) -> None:
    """A server started with a conf that keeps Neo4j's lockout (written before the conf turned it
    off) keeps it until restarted: ``server start`` on it says so and how to end it."""
    conf = server.layout.conf_file
    text = conf.read_text()
    st = server.start()
    assert st.message == "already running" and st.warnings == [], st.warnings
    try:
        conf.write_text(text.replace("dbms.security.auth_max_failed_attempts=0\n", ""))
        st = server.start()
    finally:
        conf.write_text(text)
    assert st.message == "already running"
    assert any("lockout" in w and "server stop" in w for w in st.warnings), st.warnings
