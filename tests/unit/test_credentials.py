"""The generated Neo4j password: where it is kept, who may read it, when it is used (no database)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from belief_graph.credentials import (
    LEGACY_PASSWORD,
    create_password_file,
    default_password_file,
    is_loopback,
    read_password_file,
)
from belief_graph.db.driver import create_driver
from belief_graph.errors import ConfigurationError
from belief_graph.localserver import render_conf
from belief_graph.settings import Neo4jSettings, ServerSettings, load_settings


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_create_writes_an_owner_only_file_in_an_owner_only_dir(tmp_path: Path) -> None:
    path = tmp_path / "config" / "belief-graph" / "neo4j-password"
    pw = create_password_file(path)
    assert len(pw) == 32 and pw != LEGACY_PASSWORD
    assert _mode(path) == 0o600 and _mode(path.parent) == 0o700
    assert path.read_text() == pw + "\n" and read_password_file(path) == pw
    assert create_password_file(path) == pw  # exists: the first one stays
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temp file left


def test_two_passwords_are_different(tmp_path: Path) -> None:
    assert create_password_file(tmp_path / "a" / "pw") != create_password_file(tmp_path / "b" / "pw")


def test_concurrent_creators_agree_on_one_password(tmp_path: Path) -> None:
    path = tmp_path / "c" / "neo4j-password"
    got: list[str] = []
    threads = [threading.Thread(target=lambda: got.append(create_password_file(path))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 1 and read_password_file(path) == got[0]


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_a_file_other_users_can_read_is_refused(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "pw"
    path.write_text("s3cret-s3cret\n")
    os.chmod(path, mode)
    with pytest.raises(ConfigurationError, match="chmod 600"):
        read_password_file(path)


def test_empty_or_missing_file(tmp_path: Path) -> None:
    assert read_password_file(tmp_path / "missing") is None
    empty = tmp_path / "empty"
    empty.write_text("\n")
    os.chmod(empty, 0o600)
    with pytest.raises(ConfigurationError, match="empty"):
        read_password_file(empty)


@pytest.mark.parametrize(
    "uri, loopback",
    [
        ("bolt://127.0.0.1:7687", True),
        ("neo4j://localhost", True),
        ("bolt://[::1]:7687", True),
        ("bolt://127.0.0.2:1", True),
        ("neo4j+s://abc.databases.neo4j.io", False),
        ("bolt://10.0.0.5", False),
        ("bolt://127.0.0.1.evil.example", False),
    ],
)
def test_is_loopback(uri: str, loopback: bool) -> None:
    assert is_loopback(uri) is loopback


def test_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    for var in ("BELIEF_GRAPH_NEO4J__PASSWORD", "BELIEF_GRAPH_NEO4J__PASSWORD_FILE", "BELIEF_GRAPH_NEO4J__URI"):
        monkeypatch.delenv(var, raising=False)
    assert default_password_file() == tmp_path / "xdg" / "belief-graph" / "neo4j-password"
    s = load_settings()
    assert s.neo4j.password is None and s.neo4j.password_source == "none"
    stored = create_password_file(default_password_file())
    s = load_settings()
    assert s.neo4j.password is not None and s.neo4j.password.get_secret_value() == stored
    assert s.neo4j.password_source == "file"
    # an explicit password wins
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J__PASSWORD", "explicit-password")
    s = load_settings()
    assert s.neo4j.password.get_secret_value() == "explicit-password" and s.neo4j.password_source == "explicit"  # type: ignore[union-attr]
    monkeypatch.delenv("BELIEF_GRAPH_NEO4J__PASSWORD")
    # the local server's password is never sent to a remote server ...
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J__URI", "neo4j+s://abc.databases.neo4j.io")
    s = load_settings()
    assert s.neo4j.password is None
    with pytest.raises(ConfigurationError, match="BELIEF_GRAPH_NEO4J__PASSWORD"):
        create_driver(s.neo4j)
    # ... unless a file is named explicitly
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J__PASSWORD_FILE", str(default_password_file()))
    assert load_settings().neo4j.password.get_secret_value() == stored  # type: ignore[union-attr]


def test_no_password_is_a_one_line_configuration_error(tmp_path: Path) -> None:
    s = Neo4jSettings(password_file=tmp_path / "nothing-here")
    with pytest.raises(ConfigurationError) as info:
        create_driver(s)
    msg = str(info.value)
    assert "\n" not in msg and "belief-graph server start" in msg and "BELIEF_GRAPH_NEO4J__PASSWORD" in msg


def test_nothing_publishes_a_password() -> None:
    """No default password in the settings, and the password is never in a repr."""
    assert Neo4jSettings.model_fields["password"].default is None
    s = Neo4jSettings(password="do-not-print-me")
    assert "do-not-print-me" not in repr(s) and "do-not-print-me" not in str(s.model_dump())


def test_http_answers_cors_for_its_own_origin_only(tmp_path: Path) -> None:
    conf = render_conf(ServerSettings(home=tmp_path, http_port=7474), home=tmp_path, data_dir=tmp_path / "d")
    assert "dbms.security.http_access_control_allow_origin=http://127.0.0.1:7474" in conf.splitlines()
    assert "server.http.listen_address=127.0.0.1:7474" in conf.splitlines()
    off = render_conf(ServerSettings(home=tmp_path, http_port=0), home=tmp_path, data_dir=tmp_path / "d")
    assert "server.http.enabled=false" in off.splitlines() and "allow_origin" not in off


def test_a_login_lockout_is_a_typed_error_that_says_what_happened() -> None:
    """Neo4j's answer while it locks a user (any client's failed logins trigger it, the password is
    not even checked) is :class:`AuthenticationLocked`, not a bare ``DatabaseError`` with Neo4j's
    code, nor ``AuthenticationFailed``: the password is not wrong."""
    from neo4j.exceptions import Neo4jError

    from belief_graph.db.driver import translate
    from belief_graph.errors import AuthenticationFailed, AuthenticationLocked, DatabaseError

    # what the driver builds from the server's FAILURE message
    exc = Neo4jError._hydrate_neo4j(
        code="Neo.ClientError.Security.AuthenticationRateLimit",
        message="The client has provided incorrect authentication details too many times in a row.",
    )
    err = translate(exc, Neo4jSettings(uri="bolt://127.0.0.1:7687", password="x" * 12))
    assert isinstance(err, AuthenticationLocked) and isinstance(err, DatabaseError)  # CLI exit 1
    assert not isinstance(err, AuthenticationFailed)
    assert err.uri == "bolt://127.0.0.1:7687" and err.user == "neo4j"
    assert "too many failed logins" in str(err) and "\n" not in str(err)
