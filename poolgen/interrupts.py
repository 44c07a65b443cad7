"""Ctrl-C and SIGTERM: unwinding like an exception, deferred while a commit is in progress.

`install()` makes SIGINT and SIGTERM raise `Interrupted` (a KeyboardInterrupt, so every `finally`
and `except BaseException` cleanup runs) carrying the signal, so the command exits 130 or 143.
`deferred()` holds both signals back over a few steps that must happen together (renaming a run
into place and naming its seed; writing a key pair); a signal that arrives meanwhile is raised
when the block ends. Worker processes ignore both and die with their parent (`worker_init`); they
start with both blocked (`starting_workers`), so a Ctrl-C cannot reach one before it ignores them.
Outside a command's own handling (while the CLI loads, parses its arguments, and once the command has
ended) `exit_at_once` is in force: one line on stderr, then exit 128 + the signal at once; nothing
is being written then.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from audit.interrupts import pause_point as pause_point  # the one test hook, shared (poolgen may use audit)

Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None  # what signal.signal returns

SIGNALS = (signal.SIGINT, signal.SIGTERM)
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class Interrupted(KeyboardInterrupt):
    """A SIGINT or SIGTERM; `exit_code` is 128 + the signal's number (130, 143)."""

    def __init__(self, signum: int, outcome: str | None = None) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.exit_code = 128 + signum
        self.outcome = outcome or what_was_kept()


_kept: list[str] = []  # what the running command has put under a final name, complete (`kept`)


def kept(what: str | Path) -> None:
    """`what` (a file or folder) is now complete under its final name: an interrupt of this command from
    now on says it was kept, not that nothing was left (fsutil calls this as it renames). Not if it is inside
    a folder still being staged (`.NAME.partial-*`, as a demo's run is): it goes with that folder."""
    if not any(part.startswith(".") and ".partial-" in part for part in Path(what).parts[:-1]):
        _kept.append(str(what))
    pause_point("kept")


def what_was_kept() -> str:
    if not _kept:
        return "nothing was left under a final name"
    return f"{', '.join(_kept)} {'was complete and is' if len(_kept) == 1 else 'were complete and are'} kept"


def kept_so_far() -> str:
    """What `what_was_kept` says, or "" if nothing is in place yet."""
    return what_was_kept() if _kept else ""


def forget_kept() -> None:
    """A new command starts (`reports_errors`): nothing of its own is kept yet."""
    _kept.clear()


def _raise(signum: int, frame: FrameType | None) -> NoReturn:
    raise Interrupted(signum)


def install() -> dict[int, Handler]:
    """SIGINT and SIGTERM raise Interrupted in the main thread (nothing is done elsewhere); returns
    the handlers they replace, for `restore`."""
    try:
        return {s: signal.signal(s, _raise) for s in SIGNALS}
    except ValueError:  # not the main thread: leave the handlers as they are
        return {}


@dataclass
class _AtOnce:
    """What `_exit_now` says: the program, what it had done, and its exit code once it has ended."""

    program: str = "poolgen"
    outcome: str = "nothing was done"
    code: int | None = None


_at_once = _AtOnce()


def _exit_now(signum: int, frame: FrameType | None) -> NoReturn:
    """Outside a command: say so in one line and exit now. A signal while the command is already exiting
    on an interrupt only ends it with that exit code (its line is said); one after the command finished
    says so and what it exited with."""
    if _at_once.code is None or _at_once.code < 128:
        when = "" if _at_once.code is None else f" as it ended (it had finished, exit {_at_once.code})"
        with suppress(Exception):  # what the command printed goes out before the process ends
            sys.stdout.flush()
        with suppress(OSError):
            os.write(2, f"{_at_once.program}: error: interrupted by {signal.Signals(signum).name}{when}; "
                        f"{_at_once.outcome}\n".encode())
        os._exit(128 + signum)
    os._exit(_at_once.code)


def exit_at_once(program: str = "poolgen", outcome: str = "nothing was done") -> None:
    """From now on, until a command installs its own handling, SIGINT and SIGTERM end the process at
    once with one line `PROGRAM: error: interrupted by SIGNAL; OUTCOME` and exit 128 + the signal
    (a KeyboardInterrupt raised while modules load can be swallowed by Python as "Exception ignored",
    and SIGTERM would kill the process without a word)."""
    _at_once.program, _at_once.outcome, _at_once.code = program, outcome, None
    for s in SIGNALS:
        signal.signal(s, _exit_now)


def ended(code: int) -> None:
    """The command has ended with exit `code`: a signal from now on says so (`exit_at_once`), and
    everything it wrote is complete."""
    _at_once.code, _at_once.outcome = code, "everything it wrote is complete"


def finish(code: int | str | None) -> NoReturn:
    """End the process with `code` (a SystemExit's) without Python's own shutdown: that restores the
    default handlers, and a signal then would kill the process without a word. A signal while the exit
    steps run is noted (not blocked: another thread, numpy's or polars', would take it) and reported
    once they are done, as `exit_at_once` does."""
    caught: list[int] = []
    for s in SIGNALS:
        signal.signal(s, lambda signum, frame: caught.append(signum))
    if isinstance(code, str):
        print(code, file=sys.stderr)
        code = 1
    if _at_once.code is None:  # a command without handling of its own, or --help
        ended(code or 0)
    with suppress(Exception):  # as Python's shutdown does first: join threads (an executor's manager)
        threading._shutdown()  # type: ignore[attr-defined]  # CPython's own first exit step, not in typeshed
    atexit._run_exitfuncs()
    pause_point("ending")
    for stream in (sys.stdout, sys.stderr):
        with suppress(Exception):
            stream.flush()
    _handlers_run()
    if caught:
        _exit_now(caught[0], None)
    os._exit(code or 0)


def _handlers_run() -> None:
    """Nothing: calling a Python function runs the handler of a signal another thread took."""


def restore(previous: dict[int, Handler]) -> None:
    for s, handler in previous.items():
        signal.signal(s, handler)


@contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the block; one that arrived is raised when it ends."""
    caught: list[int] = []
    try:
        previous = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in SIGNALS}
    except ValueError:  # not the main thread: signals are not delivered here anyway
        yield
        return
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if caught:
        raise Interrupted(caught[0])


@contextmanager
def starting_workers() -> Iterator[None]:
    """Block SIGINT and SIGTERM in this thread while it starts worker processes.

    A child inherits the signal mask across fork and exec, so a Ctrl-C sent to the process group
    while a worker is still starting (importing, before `worker_init` runs) stays pending there, and
    `worker_init` discards it: without this, the worker would print a KeyboardInterrupt traceback.
    A signal sent to this process meanwhile is not lost: it is raised as the block ends (`deferred`),
    even one another thread of the process (a progress bar's) takes: raised at once, it could stop a
    worker's start half-way, and that worker would print a traceback (EOFError: the parent stopped
    sending it its start-up data)."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: nothing to block
        yield
        return
    with deferred():
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)

def worker_init() -> None:
    """In a worker process: ignore Ctrl-C and SIGTERM (the parent coordinates) and die with the parent.

    PR_SET_PDEATHSIG has the kernel send SIGKILL when the parent exits, even by SIGKILL; checking the
    parent afterwards closes the race of a parent that died before the call."""
    parent = os.getppid()
    for s in SIGNALS:
        signal.signal(s, signal.SIG_IGN)  # also discards one that is pending (`starting_workers`)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent or parent == 1:
        os._exit(1)


PAUSE_ENV = "POOLGEN_TEST_PAUSE"  # "MOMENT:SECONDS:MARKFILE", for the interrupt tests only
