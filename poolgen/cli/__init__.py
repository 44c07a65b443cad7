"""The `poolgen` command line: one module per command group, each a thin layer over the library."""

import sys

try:  # the few milliseconds before `exit_at_once` is in force: a Ctrl-C is one line there too
    from poolgen.interrupts import exit_at_once, finish, pause_point
    from poolgen.memory import keep_freed_memory
except KeyboardInterrupt:
    print("poolgen: error: interrupted by SIGINT; nothing was done", file=sys.stderr)
    raise SystemExit(130) from None


def run() -> None:
    """The `poolgen` command. Loading it takes a few tenths of a second (typer, rich; each command
    imports numpy, polars, reportlab... when it runs, docs/scaling.md): a Ctrl-C or SIGTERM then, or
    while the arguments are parsed, ends it at once with one line and exit 130 or 143, not a traceback,
    up to the process's very end (each command then installs its own handling, poolgen/interrupts.py).
    A reader that stops early (`| head`) ends it quietly with exit 141, as git (audit/pipes.py)."""
    exit_at_once("poolgen", "nothing was done")
    if sys.argv[1:2] == ["generate"]:  # poolgen/memory.py says why only here
        keep_freed_memory()
    pause_point("loading")
    from audit.pipes import STDOUT_CLOSED, closed_standard_streams, flushed  # as the app: see below

    if closed_standard_streams():  # before the app opens anything (audit/pipes.py)
        if sys.stderr is not None:
            print(f"poolgen: error: {STDOUT_CLOSED}", file=sys.stderr)
        finish(2)
    from poolgen.cli.main import app  # loaded once a Ctrl-C is one line (exit_at_once)

    try:
        app()
    except SystemExit as exc:
        finish(flushed(exc.code))  # also while Python would shut down, a signal is one line and 128 + it
    finish(flushed(0))
