"""audit.interrupts.Early: worker processes started as a command starts, before it knows it will use them.
The run takes them only if they are as many as it can use; otherwise, and on every way out of the command
(`close`), they are killed and waited for. Real processes (spawned interpreters), no stand-ins."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from audit.interrupts import SIGNALS, Early

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")


def _alive(pid: int) -> bool:
    """True while `pid` runs (a zombie, dead but not yet reaped, is not running)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _workers(early: Early) -> list[int]:
    pool = early._pool  # the test looks inside: which processes the pool started
    assert pool is not None
    return [p.pid for p in (pool._processes or {}).values()]


def test_workers_as_many_as_the_run_uses_are_handed_over_started_by_their_named_initializer():
    early = Early(1, "audit.interrupts:worker_init", ("colorsys",))
    started = _workers(early)
    assert len(started) == 1  # started at once, before anything was asked of it
    pool = early.take(1)
    assert pool is not None
    try:
        assert early.take(1) is None  # handed over once
        handlers = [pool.submit(signal.getsignal, s).result(timeout=120) for s in SIGNALS]
        assert handlers == [signal.SIG_IGN, signal.SIG_IGN]  # worker_init ran: the parent coordinates
        assert pool.submit(os.getpid).result(timeout=120) == started[0]
        imported = "'colorsys' in __import__('sys').modules"  # nothing else imports colorsys
        assert pool.submit(eval, imported).result(timeout=120)  # imported as it started
        early.close()  # taken: not the caller's to end any more
        assert _alive(started[0])
    finally:
        pool.shutdown()
    assert not _alive(started[0])


def test_workers_not_as_many_as_the_run_uses_are_killed_and_waited_for():
    early = Early(1, "audit.interrupts:worker_init")
    started = _workers(early)
    assert early.take(2) is None
    assert started and not any(_alive(pid) for pid in started)


def test_close_kills_workers_still_starting_and_waits_for_them(tmp_path):
    """A worker held at "worker-start" (imported, not yet ignoring signals) is killed, not waited for."""
    os.environ["POOLGEN_TEST_PAUSE"] = f"worker-start:600:{tmp_path / 'mark'}"
    try:
        early = Early(1, "audit.interrupts:worker_init")
    finally:
        del os.environ["POOLGEN_TEST_PAUSE"]
    started = _workers(early)
    deadline = time.monotonic() + 120
    while not (tmp_path / "mark").exists():  # the worker has imported what it was given and waits
        assert time.monotonic() < deadline, "the worker never reached worker-start"
        time.sleep(0.02)
    early.close()
    assert started and not any(_alive(pid) for pid in started)
    early.close()  # a second close: nothing left to end
    assert early.take(1) is None
