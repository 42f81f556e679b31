"""Network probes: is a port taken, does a Bolt server answer."""

from __future__ import annotations

import errno
import socket

HOST = "127.0.0.1"
"""The only address the server listens on."""


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
