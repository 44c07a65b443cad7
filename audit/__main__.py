"""`python -m audit`: the auditor's command line (audit/cli.py)."""

import sys

try:  # loading takes a second or two (numpy, polars): a Ctrl-C then is one line too
    from audit.cli import app
except KeyboardInterrupt:
    print("audit: error: interrupted by SIGINT while starting; nothing was verified", file=sys.stderr)
    raise SystemExit(130) from None

app(prog_name="python -m audit")
