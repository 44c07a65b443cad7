"""A reader that stops early (`python -m audit verify RUN | head -1`, `poolgen rng bytes ... | head -c 10`):
the program ends quietly with exit 141, what a shell shows for git or cat that SIGPIPE ended, not
typer's exit 1 (`verify`'s "a step fails") nor a line about output nobody read.

SIGPIPE itself stays ignored (Python's default): Ctrl-C may end a pool's worker processes while the
main process still writes to their pipes, and SIGPIPE's default action would kill it there, without
the one line and exit 130 or 143 an interrupt owes. So a BrokenPipeError is told apart by where it
happened: only one with standard output's own reader gone is this quiet exit; any other is left as it
was. poolgen uses the same (poolgen/cli).
"""

from __future__ import annotations

import errno
import io
import os
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console

CLOSED_STDOUT = 141  # 128 + SIGPIPE: what a shell shows when git or cat stop because `head` has read enough


def _reader_gone(fd: int) -> bool:
    """Whether `fd` is a pipe (or socket) whose reading end is closed: poll says POLLERR or POLLHUP."""
    try:
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # fd not open, or no poll() (not POSIX)
        return False


def closed_stdout() -> bool:
    """After a BrokenPipeError: whether it is standard output's reader that stopped reading (`| head`),
    not a pipe of the program's own (a worker's, which Ctrl-C may have ended). If so, fd 1 (and fd 2
    if its reader is gone too) now points at /dev/null, so that no later write and no last flush can
    raise again, and the caller exits CLOSED_STDOUT without a word, as git does."""
    if not _reader_gone(1):
        return False
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            if fd == 1 or _reader_gone(fd):
                os.dup2(null, fd)
    finally:
        os.close(null)
    return True


class StandardOutputError(OSError):
    """A write to standard output failed other than by its reader going: a file on a full disk, or past a
    file size limit (`poolgen merkle-proof ... --json > claim.json`). It was a traceback, and then an
    "Exception ignored" as Python's shutdown flushed again, exit 120; each program says it in one line."""


class _StandardOutput(io.FileIO):
    """Descriptor 1 under the text layer, whose failed writes say they are standard output's."""

    def write(self, b: Any, /) -> int:
        try:
            return super().write(b)
        except (BrokenPipeError, BlockingIOError):  # a reader gone; a full non-blocking pipe
            raise
        except OSError as exc:
            raise StandardOutputError(exc.errno, exc.strerror) from None


def stdout_lost(exc: OSError) -> str:
    """After a StandardOutputError: the one line's text (without the program's prefix); fd 1 now points at
    /dev/null, so that no last flush raises again (what it held is lost either way)."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
    finally:
        os.close(null)
    return f"standard output: cannot write: {exc.strerror or exc}"


def closed_standard_streams() -> bool:
    """Descriptors 0, 1 and 2 the program was started without (`<&-`, `>&-`, `2>&-`: Python then has no
    sys.stdin, sys.stdout or sys.stderr), each pointed at /dev/null before anything is opened: a file the
    program opens would take the lowest free number, and a write to "standard error" (a worker's, a
    library's) would land in a run file or a ledger, as OpenSSH's sanitise_stdfd guards. Whether standard
    output was closed: the caller then refuses in one line (a command's results would be lost unseen, and
    every command wrote them to a None sys.stdout, a traceback)."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:
        null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    return 1 in closed


STDOUT_CLOSED = "standard output is closed (>&-); nothing was done: send it to a file, a pipe or /dev/null"


def flushed(code: int | str | None) -> int | str | None:
    """`code`, or CLOSED_STDOUT if what is still buffered for standard output finds its reader gone
    (the last step before `finish`, which would let that pass)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return CLOSED_STDOUT if closed_stdout() else code
    except (OSError, ValueError):  # any other failure: `finish` flushes again and lets it pass, as before
        return code
    return code


def whole_writes() -> None:
    """An unbuffered standard output (`python -u`, PYTHONUNBUFFERED) is a raw file under the text layer,
    which takes what one write(2) took and drops the rest: into a pipe whose reader has gone, 64 KiB of
    a document went and the command still exited 0. Put a buffered writer between them, which writes all
    or raises (each echo flushes it, as unbuffered output would be). Buffered or not, descriptor 1 is then
    written through `_StandardOutput`, whose failures are told apart (StandardOutputError)."""
    out = sys.stdout
    if not isinstance(out, io.TextIOWrapper):
        return
    raw = out.buffer if isinstance(out.buffer, io.FileIO) else getattr(out.buffer, "raw", None)
    if type(raw) is not io.FileIO or raw.fileno() != 1:  # a test runner's, or already ours
        return
    out.flush()
    _kept_open.append(out)  # collected, it would close fd 1 under the new one
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_StandardOutput(1, "w", closefd=False)),
                                  encoding=out.encoding, errors=out.errors, line_buffering=out.line_buffering,
                                  write_through=out.buffer is raw)


_kept_open: list[io.TextIOWrapper] = []


def _raise_broken_pipe(console: Console) -> None:
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def rich_raises_broken_pipes() -> None:
    """rich's consoles (the commands' own and typer's, which prints --help) meet a broken pipe with exit
    1, after pointing fd 1 at /dev/null even when the pipe was stderr's (`Console.on_broken_pipe`, a
    hook made to be replaced): have them raise it instead, for `quiet_on_closed_stdout` to judge."""
    setattr(Console, "on_broken_pipe", _raise_broken_pipe)  # noqa: B010  # mypy refuses a method assigned


@contextmanager
def quiet_on_closed_stdout() -> Iterator[None]:
    """A BrokenPipeError because standard output's reader is gone becomes a quiet exit 141 (typer would
    make any broken pipe exit 1, `verify`'s "a step fails"); any other is left as it is."""
    try:
        yield
    except BrokenPipeError:
        if not closed_stdout():
            raise
        raise typer.Exit(CLOSED_STDOUT) from None
