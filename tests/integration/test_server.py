"""The local Neo4j server for real: start, crash, recover, stop, and the ways a start fails.

Each test gets its own temporary home on a free port (HTTP off), so it never touches the shared
test server on 7687. The ~123 MB distribution is built once into the configured home
(``load_settings().server.home``, as ``belief-graph server install`` would) and each temporary
home links its ``dist/`` there. Like the rest of the integration suite, a missing Java/Maven is a
failure, not a skip.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from neo4j import GraphDatabase

from belief_graph.errors import JavaNotFound, PortInUse, ServerStartFailed
from belief_graph.localserver import LocalServer, find_java
from belief_graph.settings import Neo4jSettings, ServerSettings, load_settings

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(sys.platform == "win32", reason="the local server is POSIX only"),
]

NEO4J = Neo4jSettings(password=f"server-test-{uuid.uuid4().hex}")  # explicit: these homes never use the password file
assert NEO4J.password is not None
AUTH = (NEO4J.user, NEO4J.password.get_secret_value())

MakeServer = Callable[..., LocalServer]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def dist_root() -> Path:
    """``<configured home>/dist`` with the distribution built (once; later runs are instant)."""
    shared = load_settings().server
    try:
        find_java(shared.java_home)
        LocalServer(shared).install()
    except Exception as exc:
        pytest.fail(f"cannot build the local Neo4j distribution: {exc}", pytrace=False)
    return Path(shared.home).expanduser().resolve() / "dist"


@pytest.fixture
def make_server(tmp_path: Path, dist_root: Path) -> Iterator[MakeServer]:
    """Factory for servers in a temp home sharing the built ``dist/``; all are stopped after."""
    made: list[LocalServer] = []

    def make(neo4j: Neo4jSettings = NEO4J, **overrides: Any) -> LocalServer:
        home = tmp_path / "home"
        home.mkdir(exist_ok=True)
        if not (home / "dist").exists():
            (home / "dist").symlink_to(dist_root, target_is_directory=True)
        fields: dict[str, Any] = {
            "home": home,
            "bolt_port": _free_port(),
            "http_port": 0,
            "start_timeout": 90.0,
        }
        fields.update(overrides)
        srv = LocalServer(ServerSettings(**fields), neo4j)
        made.append(srv)
        return srv

    yield make
    for srv in made:
        srv.stop()


def _count_probes(uri: str, token: str) -> int:
    with GraphDatabase.driver(uri, auth=AUTH) as drv:
        records, _, _ = drv.execute_query("MATCH (p:ServerTestProbe {token: $token}) RETURN count(p) AS n", token=token)
        return int(records[0]["n"])


def _write_probe(uri: str, token: str) -> None:
    with GraphDatabase.driver(uri, auth=AUTH) as drv:
        drv.execute_query("CREATE (:ServerTestProbe {token: $token})", token=token)


def _no_run_files(srv: LocalServer) -> bool:
    return not srv.layout.pid_file.exists() and not srv.layout.state_file.exists()


@pytest.mark.timeout(300)
def test_start_crash_recover_stop(make_server: MakeServer) -> None:
    srv = make_server()
    token = uuid.uuid4().hex

    # fresh data dir: starts, and the initial neo4j/neo4j password is replaced by ours
    st = srv.start()
    assert st.running and st.ready and st.pid is not None, st
    assert st.message.startswith("started in"), st.message
    assert st.warnings == []
    assert st.bolt_uri == srv.bolt_uri and st.http_url is None and st.version == "5.26.30"
    assert srv.status().ready
    _write_probe(srv.bolt_uri, token)

    # idempotent start
    again = srv.start()
    assert again.message == "already running" and again.pid == st.pid

    # clean stop and start: data survives
    stopped = srv.stop()
    assert not stopped.running and stopped.message.startswith("stopped in"), stopped
    assert _no_run_files(srv)
    st = srv.start()
    assert st.ready and st.warnings == [], st
    assert _count_probes(srv.bolt_uri, token) == 1
    _write_probe(srv.bolt_uri, token)  # committed, not checkpointed: only in the tx log

    # crash: kill -9 leaves a stale pid file and store_lock file behind
    assert st.pid is not None
    os.kill(st.pid, signal.SIGKILL)
    os.waitpid(st.pid, 0)  # it is our child (posix_spawn): reap it
    assert srv.layout.pid_file.exists()
    assert srv.layout.store_lock.exists()

    # the next start recovers: the transaction log is replayed, both nodes are there
    st = srv.start()
    assert st.ready and st.message.startswith("started in"), st
    assert _count_probes(srv.bolt_uri, token) == 2
    debug_log = (srv.layout.logs_dir / "debug.log").read_text()
    assert "Recovery required from position" in debug_log  # a real replay, not a clean start

    stopped = srv.stop()
    assert not stopped.running and _no_run_files(srv)
    status = srv.status()
    assert not status.running and status.message == "not running"


@pytest.mark.timeout(120)
def test_stale_pid_file_after_crash_is_reported(make_server: MakeServer) -> None:
    """status() after a kill -9 says so, and removes the pid file (no start needed)."""
    srv = make_server()
    srv.layout.run_dir.mkdir(parents=True, exist_ok=True)
    srv.layout.pid_file.write_text("999999999\n")  # beyond pid_max: never alive
    st = srv.status()
    assert not st.running and st.message == "not running (stale pid file removed)"
    assert _no_run_files(srv)


@pytest.mark.timeout(120)
def test_port_in_use(make_server: MakeServer) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen(1)
        port = blocker.getsockname()[1]
        srv = make_server(bolt_port=port)
        with pytest.raises(PortInUse) as info:
            srv.start()
    assert info.value.port == port
    assert _no_run_files(srv) and not srv.status().running


@pytest.mark.timeout(120)
def test_jvm_refuses_heap(make_server: MakeServer) -> None:
    srv = make_server(heap="notasize")
    t0 = time.monotonic()
    with pytest.raises(ServerStartFailed) as info:
        srv.start()
    assert time.monotonic() - t0 < 60  # fails fast, no waiting for the timeout
    assert "exited" in info.value.reason
    assert "notasize" in info.value.reason  # the JVM's own line: "Invalid initial heap size"
    assert "Invalid initial heap size" in info.value.log_tail
    assert "last lines of the server log" in str(info.value)
    assert _no_run_files(srv) and not srv.status().running


@pytest.mark.timeout(120)
def test_neo4j_refuses_conf(make_server: MakeServer) -> None:
    """A value only Neo4j's config validation catches: the tail carries its exception."""
    srv = make_server(pagecache="notasize")
    with pytest.raises(ServerStartFailed) as info:
        srv.start()
    assert "server.memory.pagecache.size" in info.value.reason
    assert "not a valid size" in info.value.log_tail
    assert _no_run_files(srv) and not srv.status().running


@pytest.mark.timeout(60)
def test_java_not_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "no-java-here"))
    empty = tmp_path / "jdk"
    empty.mkdir()
    srv = LocalServer(
        ServerSettings(home=tmp_path / "home", java_home=empty, bolt_port=_free_port(), http_port=0),
        NEO4J,
    )
    with pytest.raises(JavaNotFound, match="Java 17 or newer"):
        srv.start()
    assert _no_run_files(srv)


# ---- secure by default ------------------------------------------------------------------------


def _login_works(uri: str, password: str) -> bool:
    from neo4j.exceptions import AuthError

    try:
        with GraphDatabase.driver(uri, auth=("neo4j", password)) as drv:
            drv.verify_connectivity()
        return True
    except AuthError:
        return False


def _loose_paths(*roots: Path) -> list[str]:
    """Files and directories below ``roots`` that another user could read or enter."""
    out = []
    for root in roots:
        for p in [root, *root.rglob("*")]:
            if p.is_symlink():
                continue
            if p.stat().st_mode & 0o077:
                out.append(f"{oct(p.stat().st_mode & 0o777)} {p}")
    return out


@pytest.mark.timeout(300)
def test_first_start_generates_a_private_password_and_owner_only_files(make_server: MakeServer, tmp_path: Path) -> None:
    """No install shares a password; the store, logs and conf are not readable by other users; HTTP
    answers CORS for its own origin only (it said ``Access-Control-Allow-Origin: *``)."""
    import urllib.request

    from belief_graph.credentials import LEGACY_PASSWORD

    pw_file = tmp_path / "config" / "belief-graph" / "neo4j-password"
    http_port = _free_port()
    srv = make_server(neo4j=Neo4jSettings(password_file=pw_file), http_port=http_port)
    st = srv.start()
    assert st.ready and st.warnings == [], st
    assert pw_file.stat().st_mode & 0o777 == 0o600 and pw_file.parent.stat().st_mode & 0o777 == 0o700
    password = pw_file.read_text().strip()
    assert len(password) == 32 and srv.neo4j.password is not None
    assert srv.neo4j.password.get_secret_value() == password and srv.neo4j.password_source == "file"
    assert _login_works(srv.bolt_uri, password)
    assert not _login_works(srv.bolt_uri, LEGACY_PASSWORD)
    lay = srv.layout
    assert _loose_paths(lay.data_dir, lay.logs_dir, lay.conf_dir, lay.run_dir) == []
    assert lay.home.stat().st_mode & 0o777 == 0o700
    # a client built from settings finds the password in the file
    from belief_graph.db.driver import Graph, create_driver

    client = Neo4jSettings(uri=srv.bolt_uri, password_file=pw_file)
    g = Graph(create_driver(client), client)
    try:
        assert g.verify()["agent"].startswith("Neo4j/")
    finally:
        g.close()
    # CORS: a foreign origin is not echoed and '*' is gone
    req = urllib.request.Request(
        f"http://127.0.0.1:{http_port}/db/neo4j/query/v2",
        method="OPTIONS",
        headers={
            "Origin": "http://evil.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type",
        },
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        allowed = resp.headers.get("Access-Control-Allow-Origin")
    assert allowed == f"http://127.0.0.1:{http_port}", allowed


@pytest.mark.timeout(400)
def test_a_store_on_the_old_fixed_password_is_moved_to_the_generated_one(
    make_server: MakeServer, tmp_path: Path
) -> None:
    """Upgrade path: a store created by an older version with 'belief-graph' (running or stopped)
    keeps working: ``server start`` moves it to the generated password; a client without the file
    gets one line saying what to do."""
    from belief_graph.credentials import LEGACY_PASSWORD
    from belief_graph.db.driver import create_driver
    from belief_graph.errors import ConfigurationError

    old = make_server(neo4j=Neo4jSettings(password=LEGACY_PASSWORD))
    assert old.start().ready  # what every install did before
    os.chmod(old.layout.data_dir, 0o755)  # and its files were world-readable
    loose = next(p for p in old.layout.data_dir.rglob("*") if p.is_file())
    os.chmod(loose, 0o644)
    pw_file = tmp_path / "config" / "neo4j-password"
    upgraded = Neo4jSettings(uri=old.bolt_uri, password_file=pw_file)
    with pytest.raises(ConfigurationError, match="server start"):
        create_driver(upgraded)  # no password file yet: one line, what to do
    new = LocalServer(old.server, upgraded)
    st = new.start()  # already running
    assert st.message == "already running"
    assert any("old fixed password" in w for w in st.warnings), st.warnings
    password = pw_file.read_text().strip()
    assert _login_works(old.bolt_uri, password) and not _login_works(old.bolt_uri, LEGACY_PASSWORD)
    assert _loose_paths(old.layout.data_dir) == []
    # stopped and started again with the upgraded settings: nothing more to do
    new.stop()
    st = LocalServer(old.server, Neo4jSettings(uri=old.bolt_uri, password_file=pw_file)).start()
    assert st.ready and st.warnings == [], st
    LocalServer(old.server, NEO4J).stop()


# ---- a database restart in the middle of a workload -------------------------------------------


def _read_until(proc: subprocess.Popen[str], prefix: str, timeout: float, seen: list[str]) -> str:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"workload ended: {proc.wait()} {proc.stderr.read() if proc.stderr else ''}")
        seen.append(line.rstrip())
        if line.startswith(prefix):
            return line
    raise AssertionError(f"no {prefix!r} within {timeout} s; last lines: {seen[-5:]}")


@pytest.mark.parametrize(
    "restarts",
    [
        pytest.param(["stop"], id="1-restart"),
        pytest.param(["stop", "kill", "stop"], id="3-restarts", marks=pytest.mark.slow),
    ],
)
@pytest.mark.timeout(900)
def test_database_restart_mid_workload(make_server: MakeServer, restarts: list[str]) -> None:
    """The server is stopped (cleanly, or with SIGKILL) while a client runs a mixed workload: the
    client sees a typed error or succeeds on retry, never a traceback; the CLI says in one line that
    the database cannot be reached (no driver retry warnings); after the restart the workload goes
    on and ``db check`` finds every invariant intact."""
    from belief_graph import BeliefGraph
    from belief_graph.db.driver import Graph, create_driver
    from belief_graph.db.schema import apply_migrations
    from belief_graph.embeddings import HashingEmbedder

    srv = make_server()
    assert srv.start().ready
    g = Graph(create_driver(srv.neo4j.model_copy(update={"uri": srv.bolt_uri})), srv.neo4j)
    apply_migrations(g, dimension=384)
    g.close()
    assert NEO4J.password is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=srv.bolt_uri,
        BELIEF_GRAPH_NEO4J__PASSWORD=NEO4J.password.get_secret_value(),
        BELIEF_GRAPH_NEO4J__MAX_TRANSACTION_RETRY_TIME="20",
    )
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("_workload.py")), "restart", "7", "0", "--forever"],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[str] = []
    try:
        _read_until(proc, "ready", 120, seen)
        progress = int(_read_until(proc, "ops 20", 300, seen).split()[1])
        for how in restarts:
            if how == "kill":
                pid = srv.status().pid
                assert pid is not None
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            else:
                srv.stop()
            down = subprocess.run(
                [
                    str(Path(sys.executable).with_name("belief-graph")),
                    "--space",
                    "restart",
                    "memory",
                    "episode",
                    "written while the database is down",
                    "--agent",
                    "a",
                ],
                env={**env, "BELIEF_GRAPH_NEO4J__MAX_TRANSACTION_RETRY_TIME": "2"},
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert down.returncode == 1, down.stderr
            assert down.stderr.startswith("error: cannot reach Neo4j") and down.stderr.count("\n") == 1, down.stderr
            assert srv.start().ready
            progress += 20
            _read_until(proc, f"ops {progress - progress % 10 + 10}", 300, seen)
            progress = int(next(x for x in reversed(seen) if x.startswith("ops ")).split()[1])
    finally:
        proc.kill()
        _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err[-3000:]
    errors = [x for x in seen if x.startswith("error ")]
    print(
        f"workload: {len(errors)} typed database errors, last progress line {next(x for x in reversed(seen) if x.startswith('ops '))}"
    )
    assert all(x.split()[1].rstrip(":") in ("DatabaseUnavailable", "DatabaseError") for x in errors), errors
    with BeliefGraph.connect(
        space="restart",
        settings=load_settings(neo4j={"uri": srv.bolt_uri, "password": NEO4J.password.get_secret_value()}),
        embedder=HashingEmbedder(384),
    ) as bg:
        report = bg.admin.check()
        assert report.ok, report.to_dict()
        assert bg.admin.stats(), "the workload wrote nothing"


@pytest.mark.timeout(300)
def test_a_transaction_over_the_memory_cap_is_a_typed_error_and_a_space_delete_halves_its_batch(
    make_server: MakeServer,
) -> None:
    """With ``transaction_max`` the server rolls back a transaction that needs more memory, and the
    caller gets :class:`TransactionMemoryExceeded` at once (not after a minute of the driver's
    retries); deleting a space whose batch does not fit halves the batch until it does and deletes
    every node of the space, none of another."""
    from belief_graph import BeliefGraph
    from belief_graph.db.driver import Graph, create_driver
    from belief_graph.db.schema import apply_migrations
    from belief_graph.embeddings import HashingEmbedder
    from belief_graph.errors import TransactionMemoryExceeded
    from belief_graph.repositories import AdminRepository

    srv = make_server(transaction_max="16m")
    assert srv.start().ready
    assert "db.memory.transaction.max=16m" in srv.layout.conf_file.read_text()
    g = Graph(create_driver(srv.neo4j.model_copy(update={"uri": srv.bolt_uri})), srv.neo4j)
    try:
        apply_migrations(g, dimension=384)
        t0 = time.monotonic()
        with pytest.raises(TransactionMemoryExceeded, match="rolled back and nothing changed"):
            g.write_tx(
                lambda tx: tx.run(
                    "UNWIND range(1, 200000) AS i CREATE (:ServerTestProbe {token: 'big', v: [j IN range(1, 50) | toFloat(j)]})"
                ).consume()
            )
        assert time.monotonic() - t0 < 10  # not retried
        assert _count_probes(srv.bolt_uri, "big") == 0
        settings = load_settings(neo4j={"uri": srv.bolt_uri, "password": AUTH[1]})
        sizes = {}
        for space, n in (("memcap", 1000), ("kept", 10)):
            with BeliefGraph.connect(space=space, settings=settings, embedder=HashingEmbedder(384)) as bg:
                items = ({"text": f"memory {i} on topic {i % 17}", "key": f"user.k{i}", "value": i} for i in range(n))
                assert bg.importer.import_items(items, agent="user:a", batch_size=100).written == n
            sizes[space] = int(
                g.driver.execute_query("MATCH (x) WHERE x.space = $s RETURN count(x) AS n", s=space).records[0]["n"]
            )
        with pytest.raises(TransactionMemoryExceeded):  # the first batch alone does not fit
            g.write_tx(lambda tx: g.run(tx, "admin.delete_space_batch", space="memcap", limit=1000))
        assert AdminRepository(g, "memcap").delete_space_batched("memcap", 1000) == sizes["memcap"]
        left = g.driver.execute_query(
            "MATCH (x) WHERE x.space IN ['memcap', 'kept'] RETURN x.space AS s, count(x) AS n"
        )
        assert {r["s"]: r["n"] for r in left.records} == {"kept": sizes["kept"]}
    finally:
        g.close()


@pytest.mark.timeout(300)
def test_clients_starting_together_on_a_fresh_store_all_get_the_schema(make_server: MakeServer) -> None:
    """Four clients apply the migrations of a fresh store at the same moment (agents started
    together): none fails on a deadlock or on an index another just created, every migration is
    recorded once, and the schema verifies."""
    import threading

    from belief_graph.db.driver import Graph, create_driver
    from belief_graph.db.schema import apply_migrations, load_migrations, verify_schema

    srv = make_server()
    assert srv.start().ready
    graphs = [Graph(create_driver(srv.neo4j.model_copy(update={"uri": srv.bolt_uri})), srv.neo4j) for _ in range(4)]
    start = threading.Barrier(len(graphs))
    applied: list[list[int]] = []
    failed: list[BaseException] = []

    def client(g: Graph) -> None:
        start.wait()
        try:
            applied.append([m.version for m in apply_migrations(g, dimension=384)])
        except BaseException as exc:  # noqa: BLE001 - every failure is the test's finding
            failed.append(exc)

    threads = [threading.Thread(target=client, args=(g,)) for g in graphs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    try:
        assert not failed, failed
        assert not any(t.is_alive() for t in threads), "a client never finished"
        versions = [m.version for m in load_migrations()]
        assert sorted({v for a in applied for v in a}) == versions  # each applied by one client or more
        recorded = graphs[0].driver.execute_query("MATCH (m:SchemaMigration) RETURN m.version AS v ORDER BY v").records
        assert [r["v"] for r in recorded] == versions
        assert verify_schema(graphs[0], dimension=384).ok
    finally:
        for g in graphs:
            g.close()
