"""The Maven fetches of the local install (Neo4j, cypher-shell, Browser) run through one helper,
``run_maven``; cypher-shell's install holds the same install lock as the others. A fake ``mvn``
(a shell script on PATH) stands in for Maven: these tests are about the process and the files
around it, not about Maven Central."""

from __future__ import annotations

import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from belief_graph.errors import ServerError
from belief_graph.localserver.java import run_maven
from belief_graph.localserver.process import file_lock
from belief_graph.localserver.shell import CypherShell
from belief_graph.settings import Neo4jSettings

pytestmark = [
    pytest.mark.unit,
    pytest.mark.skipif(sys.platform == "win32", reason="the local server is POSIX only"),
]

VERSION = "5.26.30"


def _exe(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def _java_home(root: Path) -> Path:
    home = root / "jdk"
    _exe(home / "bin" / "java", "echo 'openjdk version \"17.0.15\" 2025-04-15' >&2\n")
    return home


def _fake_mvn(root: Path, *, ok: bool) -> Path:
    """An ``mvn`` that records each call in ``calls.log`` beside it, says what it got, and (ok)
    creates the cypher-shell jar the way ``dependency:copy-dependencies`` would, else fails."""
    calls = root / "calls.log"
    made = (
        f'mkdir -p lib && : > "lib/cypher-shell-{VERSION}.jar"\n'
        if ok
        else "echo 'BUILD FAILURE: no network'\nexit 3\n"
    )
    return _exe(
        root / "bin" / "mvn",
        f'echo "$@" >> "{calls}"\necho "args: $@"\necho "JAVA_HOME=$JAVA_HOME"\necho "cwd=$(pwd)"\n{made}',
    )


def _shell(tmp_path: Path) -> CypherShell:
    return CypherShell(
        home=tmp_path / "home", version=VERSION, neo4j=Neo4jSettings(), space="t", java_home=_java_home(tmp_path)
    )


def test_run_maven_runs_quietly_in_the_folder_with_java_home_and_keeps_the_log(tmp_path: Path) -> None:
    mvn = _fake_mvn(tmp_path / "m", ok=False)
    work = tmp_path / "work"
    work.mkdir()
    rc, log = run_maven(mvn, Path("/opt/jdk-17"), work, ["dependency:copy", "-Dartifact=g:a:1:jar"])
    assert rc == 3 and log == work / "mvn.log"
    text = log.read_text()
    assert "args: -q -B dependency:copy -Dartifact=g:a:1:jar" in text
    assert "JAVA_HOME=/opt/jdk-17" in text and f"cwd={work}" in text and "BUILD FAILURE" in text


def test_cypher_shell_installs_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_mvn(tmp_path / "m", ok=True)
    monkeypatch.setenv("PATH", f"{tmp_path / 'm' / 'bin'}:/usr/bin:/bin")
    sh = _shell(tmp_path)
    lib = sh.install()
    assert (lib / f"cypher-shell-{VERSION}.jar").is_file() and sh.is_installed()
    assert sh.install() == lib
    assert len((tmp_path / "m" / "calls.log").read_text().splitlines()) == 1
    assert not sh.dist_dir.with_name(sh.dist_dir.name + ".partial").exists()


def test_a_failed_fetch_is_a_server_error_with_the_log_and_installs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_mvn(tmp_path / "m", ok=False)
    monkeypatch.setenv("PATH", f"{tmp_path / 'm' / 'bin'}:/usr/bin:/bin")
    sh = _shell(tmp_path)
    with pytest.raises(ServerError, match=r"exit code 3(.|\n)*BUILD FAILURE: no network"):
        sh.install()
    assert not sh.is_installed() and not sh.dist_dir.exists()


def test_cypher_shell_install_waits_for_the_install_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process installing into the same server home (the Neo4j distribution, Browser or
    cypher-shell) holds ``dist/.install.lock``; this install waits instead of clearing its
    staging folder, then finds its own work to do."""
    _fake_mvn(tmp_path / "m", ok=True)
    monkeypatch.setenv("PATH", f"{tmp_path / 'm' / 'bin'}:/usr/bin:/bin")
    sh = _shell(tmp_path)
    calls = tmp_path / "m" / "calls.log"
    done: list[Path] = []
    with file_lock(sh.home / "dist" / ".install.lock"):
        t = threading.Thread(target=lambda: done.append(sh.install()))
        t.start()
        time.sleep(0.5)
        assert t.is_alive() and not calls.exists()  # waiting, Maven not started
    t.join(30)
    assert done == [sh.lib_dir] and sh.is_installed()
