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

The server listens on 127.0.0.1 only, with authentication on and no lockout after failed logins
(the password is random, so a lockout would only let any local process lock the owner out), the
usage report (the only phone-home in Neo4j 5) off and the browser/client telemetry hint off, so no
traffic leaves the machine. The HTTP connector (Neo4j Browser) answers cross-origin requests for its own origin only
(``dbms.security.http_access_control_allow_origin``; Neo4j's default ``*`` let any web page the
user visits call the query API). A fresh data dir's ``neo4j``/``neo4j`` password is replaced by the
configured one on the first start; when none is configured, a random one is generated into the
password file first (:mod:`belief_graph.credentials`). The home and data directories are
owner-only (0700) and Neo4j runs with umask 077, so store files, logs and the conf are not
readable by other users.

Typical use::

    from belief_graph.settings import load_settings
    from belief_graph.localserver import LocalServer

    s = load_settings()
    srv = LocalServer(s.server, s.neo4j)
    print(srv.start().message)      # "started in 11.2 s" / "already running"
    ...
    srv.stop()

The package only logs (loggers under ``belief_graph.localserver``); callers that want progress
lines (the CLI, with rich) pass a ``progress`` callback to :meth:`LocalServer.install` /
:meth:`LocalServer.start`. POSIX only (Linux, macOS): processes are managed with sessions and
signals.

Modules: :mod:`.java` (Java/Maven discovery, the java command), :mod:`.distribution` (install),
:mod:`.conf`, :mod:`.process` (layout, run files, processes), :mod:`.probes` (ports, Bolt),
:mod:`.server` (:class:`LocalServer`).
"""

from __future__ import annotations

from .conf import render_conf
from .distribution import render_pom
from .java import (
    ENTRY_POINT,
    ENTRY_POINT_CALVER,
    MIN_JAVA_MAJOR,
    JavaInfo,
    find_java,
    find_maven,
    java_command,
    parse_java_version,
)
from .probes import HOST, bolt_answers, port_in_use
from .process import ServerLayout
from .server import LocalServer, ServerStatus

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
