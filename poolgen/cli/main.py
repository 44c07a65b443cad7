"""The `poolgen` application: commands are composed here from their own modules."""

from __future__ import annotations

import typer

from poolgen.cli import seed
from poolgen.cli.check import check
from poolgen.cli.generate import generate_cmd

app = typer.Typer(
    name="poolgen",
    help="Lottery prize pools from published prize structures: check, generate, sign, verify.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # key material may be in scope
    add_completion=False,
)
app.command()(check)
app.command("generate")(generate_cmd)
app.add_typer(seed.app, name="seed")


def run() -> None:
    app()


@app.callback()
def main() -> None:
    """Lottery prize pools from published prize structures: check, generate, sign, verify."""
