"""What every command shares: where specs live, how errors become one line and an exit code."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer
from rich.console import Console

from audit.pipes import CLOSED_STDOUT, StandardOutputError, closed_stdout, stdout_lost
from poolgen.errors import OutputError, PoolgenError
from poolgen.files.read import printable
from poolgen.files.write import present, refuse_run_folder, write_atomic
from poolgen.interrupts import ended, forget_kept, install, restore, what_was_kept

P = ParamSpec("P")
R = TypeVar("R")

err_console = Console(stderr=True, highlight=False)


def all_specs() -> list[Path]:
    from poolgen.loader import default_spec_dir  # here: the loader's numpy, off start-up (docs/scaling.md)

    folder = default_spec_dir()
    found = sorted(folder.glob("*.toml"))
    if not found:
        raise PoolgenError(f"{folder}: no spec files (*.toml) found")
    return found


def say(message: str) -> None:
    """One line of information on stderr (stdout stays for results), never wrapped; a control character
    (a newline or ESC in a path the line names) escaped, as in `fail`: a name never adds a line or reaches
    the terminal as an escape sequence."""
    err_console.print(printable(message), markup=False, soft_wrap=True)


def say_vouched(public_key: Path | None, done: str) -> None:
    """The line on stderr saying what the run's imaging files a command `done` (exported, sealed) were
    held to: the list the signer signed (--public-key checked), or the run folder's word alone."""
    if public_key is not None:
        say(f"manifest signature checked with {public_key}: the imaging files {done} are the ones the signer "
            "listed")
    else:
        say(f"manifest signature not checked (no --public-key): the imaging files {done} are the ones this "
            "run folder's manifest lists, its word alone; check it with --public-key")


def echo(line: str) -> None:
    """One line of a result on stdout, escaped as `say`'s (a JSON document goes out as typer.echo: JSON
    escapes every control character itself)."""
    typer.echo(printable(line))


def fail(message: str, code: int = 2) -> typer.Exit:
    say(f"poolgen: error: {printable(message)}")  # a field or value from the input never adds a line
    return typer.Exit(code)


_running: list[Callable[..., object]] = []  # the commands running (one, or demo and the one it runs)


def reports_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn a PoolgenError (or Ctrl-C) into one line on stderr and a non-zero exit, no traceback."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if not _running:  # the outermost command (demo runs others inside it)
            forget_kept()
        _running.append(fn)
        previous = install()  # SIGINT and SIGTERM unwind as Interrupted: every cleanup runs
        code = 1
        try:
            result = _one_line_errors(fn, *args, **kwargs)
            code = 0
            return result
        except typer.Exit as exc:
            code = exc.exit_code
            raise
        finally:
            _running.pop()
            ended(code)  # a signal from now on exits at once, saying the command had ended (`run`)
            restore(previous)

    return wrapper


def _one_line_errors(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    try:
        return fn(*args, **kwargs)
    except PoolgenError as exc:
        raise fail(str(exc), exc.exit_code) from None
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        outcome = getattr(exc, "outcome", None) or what_was_kept()
        raise fail(f"interrupted by {signal.Signals(signum).name}; {outcome}", 128 + signum) from None
    except BrokenPipeError:
        if closed_stdout():  # the reader of standard output stopped (`| head`): quietly, as git
            raise typer.Exit(CLOSED_STDOUT) from None
        sys.stderr.close()
        raise typer.Exit(1) from None
    except StandardOutputError as exc:  # standard output into a file on a full disk: one line, exit 2
        raise fail(stdout_lost(exc)) from None


Json = Annotated[bool, typer.Option("--json", help="Print the outcome as one JSON document (what was "
                                                    "written, its SHA-256, counts; never a secret).")]

Force = Annotated[bool, typer.Option("--force", help="Replace FILE if it exists (by default an "
                                                     "existing file is never overwritten).")]


def refuse_output(path: Path, force: bool, what: str) -> None:
    """Refuse, before any work, a file `write_output` would refuse: in a run folder, a folder, or an
    existing file without `force`."""
    refuse_run_folder(path, f"{what} file")
    if present(path) and not force:
        raise OutputError(f"{path}: already exists; not overwriting it (--force replaces it)")
    if os.path.isdir(path):
        raise OutputError(f"{path}: is a folder; give the {what} file's name")


def write_output(path: Path, data: bytes, force: bool, what: str) -> None:
    """Write a file a command makes: mode 0600 whatever the umask (it may hold outcomes), whole or not
    at all, and never over an existing file unless `force`."""
    refuse_output(path, force, what)
    write_atomic(path, data, mode=0o600)
