"""`python -m poolgen` is the `poolgen` command."""

from poolgen.cli.main import run

run()
