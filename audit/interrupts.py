"""Ctrl-C and SIGTERM during `verify`: one line, exit 128 + the signal, no worker process left.

audit never imports poolgen, so this is its own copy of the idea in poolgen/interrupts.py. `install`
makes both signals raise `Interrupted` (a KeyboardInterrupt, so every `finally` runs: the temporary
folder of step 7 is removed). Worker processes start with both blocked (`starting_workers`), then
ignore them (`worker_init`), so a Ctrl-C sent to the process group never makes one print a
traceback; the parent kills them (`stop`) and reports the interrupt once. Outside `verify`'s own
handling (while the command loads and parses its arguments, in `check-proof`, and once `verify` has
ended) `exit_at_once` is in force: one line, then exit 128 + the signal at once.
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Generic, NoReturn, TypeVar

if TYPE_CHECKING:  # not loaded before `exit_at_once` is in force: it takes a while (multiprocessing)
    from concurrent.futures import Future, ProcessPoolExecutor

K = TypeVar("K")
R = TypeVar("R")

SIGNALS = (signal.SIGINT, signal.SIGTERM)

Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None  # as signal.signal returns


class Interrupted(KeyboardInterrupt):
    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.exit_code = 128 + signum


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


def install() -> dict[signal.Signals, Handler]:
    """Both signals raise Interrupted in the main thread; returns the handlers replaced, for `restore`."""
    try:
        return {s: signal.signal(s, _raise) for s in SIGNALS}
    except ValueError:  # not the main thread: leave the handlers as they are
        return {}


@dataclass
class _AtOnce:
    """What a signal under `exit_at_once` reports: what the command has done, and its exit code once
    it has ended (None before)."""

    outcome: str = "nothing was verified"
    code: int | None = None


_at_once = _AtOnce()


def _exit_now(signum: int, frame: FrameType | None) -> NoReturn:
    """One line and exit now; a signal while `verify` is already exiting on an interrupt only ends it
    with that exit code; one after it finished says so and what it exited with."""
    if _at_once.code is None or _at_once.code < 128:
        when = "" if _at_once.code is None else f" as it ended (it had finished, exit {_at_once.code})"
        with suppress(Exception):
            sys.stdout.flush()
        with suppress(OSError):
            os.write(2, f"audit: error: interrupted by {signal.Signals(signum).name}{when}; "
                        f"{_at_once.outcome}\n".encode())
        os._exit(128 + signum)
    os._exit(_at_once.code)


def exit_at_once() -> None:
    """Until `verify` installs its own handling, both signals end the process at once with one line
    (a KeyboardInterrupt raised while modules load can be swallowed as "Exception ignored", and SIGTERM
    would kill the process without a word)."""
    _at_once.outcome, _at_once.code = "nothing was verified", None
    for s in SIGNALS:
        signal.signal(s, _exit_now)


def ended(code: int) -> None:
    """The command has ended with exit `code` and printed its output (`verify`: its report)."""
    _at_once.code, _at_once.outcome = code, "its output was printed in full"


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
        threading._shutdown()  # type: ignore[attr-defined]  # CPython's shutdown step, not in typeshed
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


def restore(previous: dict[signal.Signals, Handler]) -> None:
    for s, handler in previous.items():
        signal.signal(s, handler)


@contextmanager
def deferred() -> Iterator[None]:
    """Hold both signals back for the block (poolgen/interrupts.py's idea); one that came is raised
    when it ends."""
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
    """Block both signals in this thread while it starts worker processes (a child inherits the
    mask across fork and exec); one sent meanwhile is raised as the block ends (`deferred`), even one
    another thread takes: raised at once, it could stop a worker's start half-way, and that worker
    would print a traceback (EOFError: the parent stopped sending it its start-up data)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    with deferred():
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


def pause_point(moment: str) -> None:
    """The interrupt tests' hook (poolgen's too: poolgen.interrupts takes it from here): POOLGEN_TEST_PAUSE
    "MOMENT:SECONDS:MARKFILE" makes the process wait at MOMENT, creating MARKFILE, until the test
    removes it or SECONDS pass."""
    spec = os.environ.get("POOLGEN_TEST_PAUSE")
    if not spec:
        return
    parts = spec.split(":", 2)  # a value not of that form, SECONDS not 0 to 3600 or a MARKFILE that cannot
    if len(parts) != 3 or parts[0] != moment:  # be made pauses nowhere: a test hook never stops a real run
        return
    try:
        seconds = float(parts[1])
        if not 0 <= seconds <= 3600:  # NaN too
            return
        Path(parts[2]).touch()
    except (ValueError, OSError):
        return
    end = time.monotonic() + seconds
    while Path(parts[2]).exists() and time.monotonic() < end:
        time.sleep(0.05)


def prepared(start: str, modules: tuple[str, ...], *args: object) -> None:
    """An early worker's initializer (`Early`), named rather than given, so that the command starting
    the worker need not import it first: `modules` imported, then `start` ("module:function") called
    with `args`, signals still blocked (`starting_workers`), as an initializer given itself runs. The
    interrupt tests' moment "worker-start" is between the two: imported, not yet ignoring signals."""
    import importlib

    for name in modules:
        importlib.import_module(name)
    module, function = start.split(":")
    begin = getattr(importlib.import_module(module), function)
    pause_point("worker-start")
    begin(*args)


def ready() -> None:
    """An early worker's first job: nothing (submitting it starts the worker at once)."""


class Early:
    """`slots` worker processes started as a command starts, before it has read its inputs or knows it
    will use them: their start-up (numpy, polars and the project imported again, about half a second
    of CPU each; docs/scaling.md) overlaps the command's own. `take(slots)` hands the pool over to the
    code that shares out the work (which then ends it as it ends a pool it started), if it has that
    many workers, else ends it; `close()`, on every way out of the command, ends a pool not taken: its
    workers killed and waited for, as on an interrupt, so a refusal (exit 2), an error or an interrupt
    leaves no process behind. `args`: the initializer's (poolgen's progress queue)."""

    def __init__(self, slots: int, start: str, modules: tuple[str, ...] = (), args: tuple[object, ...] = ()) \
            -> None:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor  # lazy: see TYPE_CHECKING above
        from functools import partial

        self.slots, self.args = slots, args
        self._pool: ProcessPoolExecutor | None = ProcessPoolExecutor(
            max_workers=slots, mp_context=mp.get_context("spawn"),
            initializer=partial(prepared, start, modules, *args))
        try:
            with starting_workers():  # one job per worker: each submit finds none idle and starts one
                for _ in range(slots):
                    self._pool.submit(ready)
        except BaseException:  # a signal while they started: raised once they had (`deferred`)
            self.close()
            raise

    def take(self, slots: int) -> ProcessPoolExecutor | None:
        """The pool, if it has `slots` workers (the caller ends it from now on); else None, the pool
        ended. Once only: a second call, or one after `close`, returns None."""
        if self._pool is not None and slots == self.slots:
            pool, self._pool = self._pool, None
            return pool
        self.close()
        return None

    def close(self) -> None:
        """End the pool if it was not taken (kill its workers and wait for them); else nothing."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        with deferred():  # the pool's semaphores are released by finalizers: a signal inside one is lost
            stop(pool)
            del pool
            gc.collect()


class Shared(Generic[K, R]):
    """Jobs shared by this process and worker processes, from one list (`order`, the largest first).

    `start(slots)` hands each of `slots` workers a job (`submit(job)`: a future) and starts a thread
    that hands a worker its next job the moment it finishes one, so that no worker waits while this
    process is busy with a job of its own; this process takes the next job whenever it is free
    (`take`), and collects the workers' (`finished`). Both take from the front: the last jobs are the
    smallest, and the one process still busy at the end is busy for the shortest time. A worker's
    failure stops the handing out; it is raised by `Future.result` where the caller collects it.
    poolgen's `generate` shares its pools the same way (poolgen may use audit)."""

    def __init__(self, order: Iterable[K], submit: Callable[[K], Future[R]]) -> None:
        self._todo = deque(order)
        self._submit = submit
        self._lock = threading.Lock()
        self._running: dict[Future[R], K] = {}  # handed out, not yet collected by `finished`
        self._out: set[Future[R]] = set()  # handed out, not yet finished (the handing thread's)
        self._stopped = threading.Event()
        self._failed: BaseException | None = None

    def start(self, slots: int) -> None:
        """Hand out the first jobs (in `starting_workers`: this starts the workers) and the thread."""
        for _ in range(slots):
            self._hand()
        # started with the signals blocked, if they are: the main thread gets them, as it should
        threading.Thread(target=self._handing, name="shared-jobs", daemon=True).start()

    def _hand(self) -> None:
        with self._lock:
            if self._todo and not self._stopped.is_set():
                job = self._todo.popleft()
                future = self._submit(job)
                self._running[future] = job
                self._out.add(future)

    def _handing(self) -> None:
        from concurrent.futures import FIRST_COMPLETED, wait  # lazy: see TYPE_CHECKING above

        try:
            while self._out and not self._stopped.is_set():
                done, _ = wait(list(self._out), timeout=0.2, return_when=FIRST_COMPLETED)
                for future in done:
                    self._out.discard(future)
                    if future.cancelled() or future.exception() is not None:
                        self._stopped.set()  # the caller raises it as it collects the future
                    self._hand()
        except BaseException as exc:  # a submit refused (the pool broken): raised by `finished`
            self._failed = exc
            self._stopped.set()

    def take(self) -> K | None:
        """The next job for this process, or None once every job is handed out (or one failed)."""
        with self._lock:
            return self._todo.popleft() if self._todo and not self._stopped.is_set() else None

    def busy(self) -> bool:
        """Some job handed out has not been collected yet."""
        with self._lock:
            return bool(self._running)

    def finished(self, timeout: float = 0) -> list[tuple[K, Future[R]]]:
        """The workers' jobs finished since the last call, waiting up to `timeout` for one."""
        from concurrent.futures import FIRST_COMPLETED, wait  # lazy: see TYPE_CHECKING above

        if self._failed is not None:
            raise self._failed
        with self._lock:
            running = list(self._running)
        if timeout and running:
            wait(running, timeout=timeout, return_when=FIRST_COMPLETED)
        with self._lock:
            return [(self._running.pop(f), f) for f in running if f.done()]

    def stop(self) -> None:
        """Hand out nothing more (an error or an interrupt: then kill the workers); the thread ends
        within 0.2 s."""
        with self._lock:  # a job being handed out is out once this returns
            self._stopped.set()
