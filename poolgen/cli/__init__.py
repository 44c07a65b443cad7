"""The `poolgen` command line: one module per command group, each a thin layer over the library."""

import sys


def run() -> None:
    """The `poolgen` command. Loading it takes a second or two (numpy, polars, reportlab): a Ctrl-C then
    ends it with one line and exit 130 too, not a traceback (each command then installs its own
    handling, poolgen/interrupts.py)."""
    try:
        from poolgen.cli.main import app
    except KeyboardInterrupt:
        print("poolgen: error: interrupted by SIGINT while starting; nothing was done", file=sys.stderr)
        raise SystemExit(130) from None
    app()
