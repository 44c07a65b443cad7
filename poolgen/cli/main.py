"""The `poolgen` application: commands are composed here from their own modules."""

from __future__ import annotations

from typing import Annotated

import typer

import poolgen
from audit.cli.commands import HELP_OPTIONS, commands_named, examples, help_command
from poolgen.cli import books, ceremony, claims, imaging, keys, rng, sales, seed
from poolgen.cli.check import check
from poolgen.cli.common import fail
from poolgen.cli.demo import demo_cmd
from poolgen.cli.generate import generate_cmd
from poolgen.cli.proof import proof_cmd
from poolgen.cli.prove import prove
from poolgen.cli.publish import publish_cmd
from poolgen.cli.report import report_cmd
from poolgen.cli.seal import seal_cmd, unseal_cmd
from poolgen.cli.validate import validate_cmd
from poolgen.cli.verify import verify
from poolgen.errors import PoolgenError
from poolgen.run.provenance import LABEL, code_entry

EXIT_STATUS = (
    "`poolgen help COMMAND` (or `poolgen COMMAND -h`) explains a command.\n\n"
    "Exit status: **0** done; **1** a verdict of failure (`check`: a published figure disagrees, `verify`: a "
    "step fails, `validate`: a claim refused, ...: each command's help says which); **2** a usage error or "
    "input that cannot be used (one line `poolgen: error: ...`); **130**, **143** interrupted (SIGINT, "
    "SIGTERM); **141** standard output's reader stopped (`| head`).")

app = typer.Typer(rich_markup_mode="markdown",
    name="poolgen",
    cls=commands_named("poolgen"),  # one-line usage errors, -h and tidy help for every command
    context_settings=HELP_OPTIONS,
    help="Lottery prize pools from published prize structures: check, generate, sign, verify.",
    epilog=EXIT_STATUS,
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # key material may be in scope
    add_completion=False,
)
app.command("demo")(demo_cmd)
app.command(epilog=examples(
    "poolgen check                          # every spec in ./specs/",
    "poolgen check specs/GAME.toml --json",
))(check)
app.command("generate", epilog=examples(
    "poolgen generate specs/GAME.toml --seed-file game.seed --key key.pem",
    "poolgen generate specs/GAME.toml --pool p1 --key key.pem --json",
))(generate_cmd)
app.add_typer(seed.app, name="seed")
app.add_typer(keys.app, name="keys")
app.add_typer(rng.app, name="rng")
app.add_typer(ceremony.app, name="ceremony")
app.add_typer(imaging.app, name="imaging")
app.command("verify", epilog=examples(
    "poolgen verify outputs/RUN --public-key signing-key.pub.pem",
    "poolgen verify outputs/RUN --public-key K --spec S --seed-file F  # step 7",
    "poolgen verify outputs/RUN --public-key K --json > verdict.json",
))(verify)
app.command("merkle-proof", epilog=examples(
    "poolgen merkle-proof outputs/RUN 358-0001234-017 VIRN --public-key K \\",
    "    --json > claim.json",
    "python -m audit check-proof claim.json outputs/RUN/manifest.json \\",
    "    --public-key K",
))(prove)
app.command("prove", hidden=True)(prove)  # the old name, kept working: it was one letter from `proof`
app.command("proof")(proof_cmd)
app.command("report")(report_cmd)
app.command("publish", epilog=examples(
    "poolgen publish outputs/RUN --out bundle/ --public-key signing-key.pub.pem",
))(publish_cmd)
app.command("validate", epilog=examples(
    "poolgen validate outputs/RUN 358000130700077 025088224128 \\",
    "    --validation-key low.key --public-key K",
    "poolgen validate outputs/RUN --batch claims.csv --validation-key low.key \\",
    "    --ledger claims.sqlite --public-key K --json",
))(validate_cmd)
app.add_typer(claims.app, name="claims")
app.add_typer(sales.app, name="sales")
app.add_typer(books.app, name="books")
app.command("seal")(seal_cmd)
app.command("unseal")(unseal_cmd)
help_command(app, "poolgen")


def _version(value: bool) -> None:
    if value:
        try:
            code = code_entry()
        except PoolgenError as exc:  # a package the hash refuses (a symbolic link in it): one line
            raise fail(str(exc)) from None
        typer.echo(f"poolgen {poolgen.__version__}")
        typer.echo(f"code SHA-256 {code['sha256']} ({code['files']} files, {LABEL.decode()}; "
                   "docs/provenance.md)")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option(
        "--version", "-V", is_eager=True, callback=_version,
        help="Print the version and the hash of this generator's code, then exit.")] = False,
) -> None:
    """Lottery prize pools from published prize structures: check, generate, sign, verify."""
