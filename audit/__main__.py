"""`python -m audit`: the auditor's command line (audit/cli.py)."""

from audit.cli import app

app(prog_name="python -m audit")
