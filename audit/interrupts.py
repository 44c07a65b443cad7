"""Ctrl-C and SIGTERM during `verify`: one line, exit 128 + the signal, no worker process left.

audit never imports poolgen, so this is its own copy of the idea in poolgen/interrupts.py. `install`
makes both signals raise `Interrupted` (a KeyboardInterrupt, so every `finally` runs: the temporary
folder of step 7 is removed). Worker processes start with both blocked (`starting_workers`), then
ignore them (`worker_init`), so a Ctrl-C sent to the process group never makes one print a
traceback; the parent kills them (`stop`) and reports the interrupt once.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.exit_code = 128 + signum


def _raise(signum, frame) -> None:
    raise Interrupted(signum)


def install() -> dict:
    """Both signals raise Interrupted in the main thread; returns the handlers replaced, for `restore`."""
    try:
        return {s: signal.signal(s, _raise) for s in SIGNALS}
    except ValueError:  # not the main thread: leave the handlers as they are
        return {}


def restore(previous: dict) -> None:
    for s, handler in previous.items():
        signal.signal(s, handler)


@contextmanager
def starting_workers() -> Iterator[None]:
    """Block both signals in this thread while it starts worker processes (a child inherits the
    mask across fork and exec); one sent meanwhile is raised as the block ends, or at once if another
    thread takes it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def worker_init() -> None:
    """In a worker: ignore both signals (discarding one pending since it started), then unblock them."""
    for s in SIGNALS:
        signal.signal(s, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)


def stop(pool: ProcessPoolExecutor) -> None:
    """Kill the workers now (they ignore both signals) and wait until they are gone."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for p in processes:
        with suppress(OSError, ValueError):
            p.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        with suppress(OSError, ValueError, AssertionError):
            p.join(5)
