"""`python -m poolgen` is the `poolgen` command."""

from poolgen.cli import run

run()
