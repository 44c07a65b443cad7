"""`python -m audit`: the auditor's command line (audit/cli/)."""

import sys

try:  # the few milliseconds before `exit_at_once` is in force: a Ctrl-C is one line there too
    from audit.interrupts import exit_at_once, finish, pause_point
except KeyboardInterrupt:
    print("audit: error: interrupted by SIGINT; nothing was verified", file=sys.stderr)
    raise SystemExit(130) from None

exit_at_once()  # loading, and a command's imports (numpy, polars): a Ctrl-C then is one line too
pause_point("loading")
from audit.pipes import STDOUT_CLOSED, closed_standard_streams, flushed  # noqa: E402 - after the above

if closed_standard_streams():  # before the app opens anything (audit/pipes.py)
    if sys.stderr is not None:
        print(f"audit: error: {STDOUT_CLOSED}", file=sys.stderr)
    finish(2)
from audit.cli import app  # noqa: E402 - after the signal handling above

try:
    app(prog_name="python -m audit")
except SystemExit as exc:
    finish(flushed(exc.code))  # also while Python would shut down, a signal is one line and 128 + it
finish(flushed(0))
