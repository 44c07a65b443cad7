"""The `poolgen` application: commands are composed here from their own modules."""

from __future__ import annotations

import typer

from poolgen.cli import keys, seed
from poolgen.cli.check import check
from poolgen.cli.demo import demo_cmd
from poolgen.cli.generate import generate_cmd
from poolgen.cli.proof import proof_cmd
from poolgen.cli.prove import prove
from poolgen.cli.report import report_cmd
from poolgen.cli.seal import seal_cmd, unseal_cmd
from poolgen.cli.validate import validate_cmd
from poolgen.cli.verify import verify

app = typer.Typer(rich_markup_mode="markdown",
    name="poolgen",
    help="Lottery prize pools from published prize structures: check, generate, sign, verify.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # key material may be in scope
    add_completion=False,
)
app.command("demo")(demo_cmd)
app.command()(check)
app.command("generate")(generate_cmd)
app.add_typer(seed.app, name="seed")
app.add_typer(keys.app, name="keys")
app.command("verify")(verify)
app.command("prove")(prove)
app.command("proof")(proof_cmd)
app.command("report")(report_cmd)
app.command("validate")(validate_cmd)
app.command("seal")(seal_cmd)
app.command("unseal")(unseal_cmd)


def run() -> None:
    app()


@app.callback()
def main() -> None:
    """Lottery prize pools from published prize structures: check, generate, sign, verify."""
