"""cypher-shell from Maven Central, connected with the configured settings: every cypher/ file runs
in it with the :param lines of its header, and each curated question gives the rows the driver gives."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from explore_world import World

from belief_graph import BeliefGraph
from belief_graph.console.curated import questions, script
from belief_graph.db.registry import get_registry
from belief_graph.embeddings import HashingEmbedder
from belief_graph.localserver.shell import CypherShell

BIN = str(Path(sys.executable).with_name("belief-graph"))


@pytest.fixture(scope="module")
def shell(base_settings) -> CypherShell:  # type: ignore[no-untyped-def]
    sh = CypherShell.from_settings(base_settings)
    sh.install()
    return sh


def test_every_cypher_file_runs_in_cypher_shell_with_its_param_lines(shell: CypherShell) -> None:
    """Each file's :param lines (evaluated by the server, as cypher-shell does) and the statement,
    planned with EXPLAIN (writes are not executed). One cypher-shell session for all files."""
    registry = get_registry()
    chunks = []
    for q in registry:
        if q.database == "system":  # ALTER CURRENT USER: the system database plans no EXPLAIN
            continue
        chunks.append(script(q).replace(q.text + ";", "EXPLAIN " + q.text + ";"))
    done = shell.run_script("\n".join(chunks), output_format="plain", timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(chunks) == len(registry) - 1 >= 100


def test_each_curated_question_gives_the_same_rows_in_cypher_shell(shell: CypherShell, explore_world: World) -> None:
    sh = CypherShell(shell.home, shell.version, explore_world.settings.neo4j, explore_world.space, shell.java_home)
    with BeliefGraph.connect(
        space=explore_world.space, settings=explore_world.settings, embedder=HashingEmbedder()
    ) as bg:
        for q in questions(get_registry()):
            params = explore_world.params()[q.query.name]
            expected = bg.explore.run(q.query.name, params)
            text = script(q.query, {"space": explore_world.space, **params})
            done = sh.run_script(text, output_format="plain")
            assert done.returncode == 0, (q.query.name, done.stderr)
            lines = done.stdout.splitlines()
            rows = lines[1:] if lines else []
            assert len(rows) == len(expected.rows), (q.query.name, done.stdout[:2000])
            if expected.rows:
                assert lines[0].replace(" ", "") == ",".join(expected.keys), lines[0]
            # every node the driver saw is in cypher-shell's output (its id is one of its properties)
            for n in expected.graph.nodes:
                ident = n.properties.get("id") or n.properties.get("key") or n.properties.get("name")
                if ident is not None:
                    assert str(ident) in done.stdout, (q.query.name, ident)


def test_belief_graph_shell_runs_a_file_with_params(explore_world: World) -> None:
    s = explore_world.settings
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=s.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=s.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=s.neo4j.password.get_secret_value(),
        BELIEF_GRAPH_SERVER__HOME=str(s.server.home),
    )
    path = str(Path(__file__).resolve().parents[2] / "cypher" / "explore" / "why_believed.cypher")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [BIN, "--space", explore_world.space, "shell", *args], capture_output=True, text=True, env=env, timeout=300
        )

    done = run(path, "-p", "key=user.timezone", "--format", "plain")
    assert done.returncode == 0, done.stderr
    assert "Alice's timezone is Europe/Paris" in done.stdout and done.stdout.startswith("f, current, c, support")
    assert s.neo4j.password.get_secret_value() not in done.stdout  # the password is never echoed
    # embeddings are shortened to their length (a row was ~18 KB of numbers); --embeddings prints them
    assert re.search(r"embedding: \[\d+ numbers left out\]", done.stdout), done.stdout[:600]
    assert not re.search(r"embedding: \[-?[\d.]+(?:[eE]-?\d+)?,", done.stdout)
    assert re.search(
        r"embedding: \[-?[\d.]+(?:[eE]-?\d+)?,",
        run(path, "-p", "key=user.timezone", "--format", "plain", "--embeddings").stdout,
    )
    by_name = run("why_believed", "-p", "key=user.timezone", "--format", "plain")
    assert by_name.stdout == done.stdout
    bad = run("why_believed", "-p", "space=other")
    assert bad.returncode == 2 and "--space" in bad.stderr
    wrong = run(path, "-p", "key=no.such.key", "--format", "plain")
    assert wrong.returncode == 0 and wrong.stdout.strip() == ""
    # without a file: cypher-shell itself, connected, with $space set (stdin piped here)
    plain = subprocess.run(
        [BIN, "--space", explore_world.space, "shell"],
        input="RETURN $space AS s;\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert plain.returncode == 0 and plain.stdout.split() == ["s", f'"{explore_world.space}"'], plain


def test_the_interactive_shell_starts_without_a_java_warning(explore_world: World) -> None:
    """On a terminal (a pty here), `belief-graph shell` opens cypher-shell, which greets and exits
    on :exit; its history is kept in memory and no warning about a history file is printed."""
    import pty
    import select

    s = explore_world.settings
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_") and k != "NEO4J_CYPHER_SHELL_HISTORY"
    }
    env.update(
        BELIEF_GRAPH_NEO4J__URI=s.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=s.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=s.neo4j.password.get_secret_value(),
        BELIEF_GRAPH_SERVER__HOME=str(s.server.home),
    )
    main, sub = pty.openpty()
    proc = subprocess.Popen([BIN, "--space", explore_world.space, "shell"], stdin=sub, stdout=sub, stderr=sub, env=env)
    os.close(sub)
    seen = b""
    try:
        while proc.poll() is None and b"Bye" not in seen:
            ready, _, _ = select.select([main], [], [], 120)
            if not ready:
                break
            try:
                chunk = os.read(main, 4096)
            except OSError:
                break
            seen += chunk
            if b"Type :help" in seen.replace(b"\x1b[1m", b"").replace(b"\x1b[22m", b"") and b":exit\r" not in seen:
                os.write(main, b":exit\n")
    finally:
        proc.wait(timeout=120)
        os.close(main)
    text = seen.decode(errors="replace")
    assert "Connected to Neo4j" in text, text[-800:]
    assert "history" not in text.lower(), text[:800]
