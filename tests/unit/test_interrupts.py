"""db/interrupts.py: a signal raises at once outside a driver call and only when the call is over
inside one; a second signal while one is pending ends the process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator

import pytest

from belief_graph.db import interrupts


@pytest.fixture
def installed() -> Iterator[None]:
    saved = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    interrupts.install()
    try:
        yield
    finally:
        for s, h in saved.items():
            signal.signal(s, h)
        interrupts._pending = None
        interrupts._depth = 0
        interrupts._redelivering = False


def test_outside_a_driver_call_the_signal_raises_at_once(installed: None) -> None:
    reached = False
    with pytest.raises(SystemExit) as exc:
        os.kill(os.getpid(), signal.SIGTERM)
        reached = True
    assert exc.value.code == 128 + signal.SIGTERM and not reached


def test_inside_a_driver_call_the_signal_waits_for_its_end(installed: None) -> None:
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts.shielded():
            with interrupts.shielded():  # nested calls (a statement inside a transaction)
                os.kill(os.getpid(), signal.SIGINT)
                steps.append("inner finished")
            steps.append("outer finished")
        steps.append("after the call")  # never: the pending signal is raised on leaving the call
    assert steps == ["inner finished", "outer finished"]
    assert interrupts._pending is None and interrupts._depth == 0
    with interrupts.shielded():  # the next call is not interrupted by the old signal
        steps.append("next call")
    assert steps[-1] == "next call"


def test_an_error_inside_the_call_is_kept_as_the_context(installed: None) -> None:
    with pytest.raises(SystemExit) as exc:
        with interrupts.shielded():
            os.kill(os.getpid(), signal.SIGTERM)
            raise RuntimeError("the statement failed")
    assert isinstance(exc.value.__context__, RuntimeError)


def test_a_signal_in_a_finalizer_is_not_lost(installed: None) -> None:
    """Python drops an exception raised in ``__del__``; the signal is sent again once it is over."""

    class Finalized:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs here, inside the finalizer
                pass

    deadline = time.monotonic() + 10
    with pytest.raises(SystemExit) as exc:
        Finalized()  # collected at once: its __del__ runs on this stack
        while time.monotonic() < deadline:
            time.sleep(0.01)
    assert exc.value.code == 128 + signal.SIGTERM
    assert time.monotonic() < deadline and interrupts._pending is None


def test_a_worker_thread_does_not_hold_the_signal_back(installed: None) -> None:
    inside, release = threading.Event(), threading.Event()

    def worker() -> None:
        with interrupts.shielded():
            inside.set()
            release.wait(10)

    t = threading.Thread(target=worker)
    t.start()
    try:
        assert inside.wait(10)
        assert interrupts._depth == 0  # only the main thread is counted
        with pytest.raises(SystemExit):
            os.kill(os.getpid(), signal.SIGTERM)
    finally:
        release.set()
        t.join()


def test_a_second_signal_while_one_is_pending_ends_the_process() -> None:
    code = textwrap.dedent(
        """
        import os, signal
        from belief_graph.db import interrupts
        interrupts.install()
        with interrupts.shielded():
            os.kill(os.getpid(), signal.SIGTERM)
            print("pending", flush=True)
            os.kill(os.getpid(), signal.SIGTERM)
            print("not reached", flush=True)
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == -signal.SIGTERM, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == "pending\n"
