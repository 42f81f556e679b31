"""The Neo4j password of the local server: generated once, kept in an owner-only file.

No install shares a password. The first ``belief-graph server start`` on a machine generates one
(32 URL-safe characters from :mod:`secrets`), writes it to the password file and sets it on the
fresh store; the client, the CLI and the tests read it from there::

    <user config dir>/belief-graph/          mode 0700 (e.g. ~/.config/belief-graph)
        neo4j-password                       mode 0600, the password and a newline

Resolution (:meth:`belief_graph.settings.Neo4jSettings` does it when settings are built):

1. ``BELIEF_GRAPH_NEO4J__PASSWORD`` (or ``password=`` in code) wins;
2. else the password file, ``BELIEF_GRAPH_NEO4J__PASSWORD_FILE`` or the default path above; the
   default file is read only for a loopback URI (``127.0.0.1``, ``localhost``, ``::1``), so the
   local server's secret is never sent to a remote server; a file named explicitly is used for
   any URI;
3. else no password: connecting fails with one line saying what to do.

A password file that other users could read (group/other permission bits) or that belongs to
someone else is refused (``chmod 600 <file>``), like ssh refuses a private key.

Stores created before passwords were generated use the old fixed ``belief-graph``: ``server
start`` (also on a server that is already running) tries it after the stored password and, when
it works, changes the store's password to the stored one (see ``belief_graph.localserver.server.LocalServer._ensure_password``).
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import stat
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

from .errors import ConfigurationError

__all__ = [
    "LEGACY_PASSWORD",
    "PASSWORD_FILE_NAME",
    "create_password_file",
    "default_password_file",
    "generate_password",
    "is_loopback",
    "read_password_file",
]

PASSWORD_FILE_NAME = "neo4j-password"
LEGACY_PASSWORD = "belief-graph"
"""The fixed password every install used before generated passwords (only ever tried, never set)."""

_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def default_password_file() -> Path:
    """``<user config dir>/belief-graph/neo4j-password`` (platformdirs; ``$XDG_CONFIG_HOME`` on Linux)."""
    return Path(platformdirs.user_config_dir("belief-graph", appauthor=False)) / PASSWORD_FILE_NAME


def is_loopback(uri: str) -> bool:
    """True when ``uri``'s host is this machine's loopback interface."""
    try:
        host = urlsplit(uri).hostname or ""
    except ValueError:
        return False
    if host in _LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def generate_password() -> str:
    """32 URL-safe characters (192 bits) from the operating system's CSPRNG."""
    return secrets.token_urlsafe(24)


def read_password_file(path: Path) -> str | None:
    """The password stored in ``path``, or None when the file does not exist.

    Raises:
        ConfigurationError: the file is readable by other users, belongs to another user, is not a
            regular file, is empty or cannot be read.
    """
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigurationError(f"cannot read the Neo4j password file {path}: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(st.st_mode):
        raise ConfigurationError(f"the Neo4j password file {path} is not a regular file")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise ConfigurationError(f"the Neo4j password file {path} belongs to another user (uid {st.st_uid})")
    if st.st_mode & 0o077:
        raise ConfigurationError(
            f"the Neo4j password file {path} is readable by other users (mode {stat.S_IMODE(st.st_mode):04o}): "
            f"`chmod 600 {path}`"
        )
    try:
        password = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"cannot read the Neo4j password file {path}: {exc}") from exc
    if not password:
        raise ConfigurationError(f"the Neo4j password file {path} is empty (delete it to generate a new one)")
    return password


def create_password_file(path: Path) -> str:
    """Generate a password into ``path`` (mode 0600, its directory 0700) and return it.

    If the file appeared meanwhile (another process won the race), its password is returned
    instead: the file is written under a temporary name and hard-linked into place, which fails
    when the name exists, so the first writer is the only one and nobody reads a half-written file.
    """
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(directory, 0o700)
    password = generate_password()
    tmp = directory / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            os.write(fd, (password + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            existing = read_password_file(path)
            return existing if existing is not None else create_password_file(path)
    finally:
        tmp.unlink(missing_ok=True)
    return password
