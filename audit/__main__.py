"""`python -m audit`: the auditor's command line (audit/cli.py)."""

from audit.interrupts import exit_at_once

exit_at_once()  # loading takes a second or two (numpy, polars, scipy): a Ctrl-C then is one line too
from audit.cli import app  # noqa: E402 - after the signal handling above

app(prog_name="python -m audit")
