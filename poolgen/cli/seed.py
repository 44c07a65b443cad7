"""`poolgen seed`: seed files for runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import echo, reports_errors, say
from poolgen.files.leftovers import sweep
from poolgen.seeds.seed import commitment, fresh_seed, parse_entropy, write_seed_file

app = typer.Typer(rich_markup_mode="markdown",
                  help="new: create a run seed (secret: files are mode 0600, contents never printed).",
                  no_args_is_help=True)

Entropy = Annotated[
    list[str] | None,
    typer.Option("--entropy", metavar="HEX",
                 help="A ceremony contribution (hex, at least 32 digits); repeat for each person. "
                      "Mixed with fresh OS entropy so no single contributor controls the seed."),
]


@app.command("new")
@reports_errors
def new(
    file: Annotated[Path, typer.Argument(help="Seed file to create; never overwritten.")],
    entropy: Entropy = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the seed file, its mode and the seed's "
                                                         "commitment as JSON (never the seed).")] = False,
) -> None:
    """Write a fresh 256-bit seed to FILE (mode 0600) and print its commitment, not the seed."""
    seed = fresh_seed(parse_entropy(entropy or []))
    for line in sweep(file.parent):  # temporary files of a killed `seed new` hold seed bytes
        say(line)
    write_seed_file(file, seed)
    say(f"wrote seed file {file} (mode 0600)")
    if as_json:
        typer.echo(json.dumps({"seed_file": str(file), "mode": "0600", "commitment": commitment(seed)},
                              indent=2))
    else:
        echo(f"seed commitment: {commitment(seed)}")
