"""Ending a command (SIGTERM, Ctrl-C) without breaking the Neo4j driver.

Python delivers a signal to the main thread between two bytecodes, wherever it is. A handler that
raises (``KeyboardInterrupt``, or ``SystemExit`` for SIGTERM) therefore raises inside the driver
when the signal lands during a socket read: the driver's buffers and its protocol state are left
half-way (measured: ``BufferError: Existing exports of data`` while the session rolled back, and a
pooled connection still ``IN_TRANSACTION`` that refused the next ``BEGIN``), so the command's
``finally`` blocks (removing a bench's scratch spaces, for instance) failed and the process ended
with exit code 1 and a traceback instead of 128 + the signal.

:func:`install` puts in handlers that raise only outside driver calls. :class:`~.driver.Graph` wraps
every call to the driver in :func:`shielded`: a signal that arrives inside is remembered and raised
when the call has returned (a transaction function's statements run, its transaction commits or
rolls back, its connection goes back to the pool clean). A second signal while one is pending ends
the process at once, with the default action and no clean-up: a supervisor or a user who asks
twice is not kept waiting for a long statement. A signal that lands in a finalizer (``__del__``,
where Python would print the exception and drop it) is sent again a moment later.

Only the main thread counts: signal handlers run there, and a worker thread's driver call is never
interrupted by one. The library installs nothing by itself; the ``belief-graph`` CLI calls
:func:`install`, and an application that wants the same behaviour calls it too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = ["install", "shielded"]

_depth = 0
_pending: int | None = None  # a signal received inside a driver call or a finalizer, not raised yet
_redelivering = False
_REDELIVER_AFTER_S = 0.05


def _on_main_thread() -> bool:
    return threading.get_ident() == threading.main_thread().ident


def _exception_for(signum: int) -> BaseException:
    if signum == signal.SIGINT:
        return KeyboardInterrupt()
    return SystemExit(128 + signum)


def _in_finalizer(frame: FrameType | None) -> bool:
    """Python ignores an exception raised in ``__del__`` (it prints "Exception ignored in ..." and
    goes on): measured with the driver's ``Bolt.__del__``, the command then ran to its end and
    exited 0. The garbage collector runs finalizers on the current stack, so look at all of it."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _redeliver(signum: int) -> None:
    global _redelivering
    _redelivering = True
    os.kill(os.getpid(), signum)


def _handle(signum: int, frame: FrameType | None) -> None:
    global _pending, _redelivering
    redelivery, _redelivering = _redelivering, False
    if redelivery and _pending is None:  # raised meanwhile, when a driver call ended
        return
    if _pending is not None and not redelivery:  # asked twice: stop now
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    if _depth == 0 and not _in_finalizer(frame):
        _pending = None
        raise _exception_for(signum)
    _pending = signum
    if _depth == 0:  # in a finalizer outside a driver call: send it again once that is over
        t = threading.Timer(_REDELIVER_AFTER_S, _redeliver, (signum,))
        t.daemon = True
        t.start()


def install(signals: tuple[int, ...] = (signal.SIGTERM, signal.SIGINT)) -> None:
    """Handle ``signals`` in this process as described above (call it from the main thread)."""
    for s in signals:
        signal.signal(s, _handle)


@contextlib.contextmanager
def shielded() -> Iterator[None]:
    """A driver call: a signal handled by :func:`install` inside it is raised when it is over."""
    global _depth, _pending
    if not _on_main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _pending is not None:
            signum, _pending = _pending, None
            raise _exception_for(signum)
