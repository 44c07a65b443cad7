"""`poolgen validate`: a reference validation desk.

It answers a claim (barcode number + validation number) from a run's validation files: the prize,
not a winner, unknown ticket, or wrong validation number; with `--ledger FILE.sqlite` it records each
payment and refuses a second claim of the same ticket. For acceptance tests and small operators.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import reports_errors
from poolgen.deliverables.desk import Desk
from poolgen.deliverables.validation import read_validation_key


@reports_errors
def validate_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The run folder with validation files.")],
    barcode: Annotated[str, typer.Argument(metavar="BARCODE", help="The ticket's 15-digit barcode number.")],
    virn: Annotated[str, typer.Argument(metavar="VIRN", help="The validation number under the latex.")],
    validation_key: Annotated[Path | None, typer.Option(
        "--validation-key", metavar="FILE",
        help="Low-tier validation key: opens validation-low.bin.")] = None,
    high_validation_key: Annotated[Path | None, typer.Option(
        "--high-validation-key", metavar="FILE",
        help="High-tier validation key: opens validation-high.bin.")] = None,
    ledger: Annotated[Path | None, typer.Option(
        "--ledger", metavar="FILE.sqlite", help="Claims ledger: record the payment, refuse a second claim.")
    ] = None,
) -> None:
    """Answer one claim. Exit 0: a prize (paid, with --ledger); 1: not a winner, unknown ticket, wrong
    validation number or already paid; 2: unusable input."""
    keys = {"low": read_validation_key(validation_key) if validation_key else None,
            "high": read_validation_key(high_validation_key) if high_validation_key else None}
    answer = Desk(run, keys, ledger).claim(barcode, virn)
    typer.echo(answer.text)
    raise typer.Exit(0 if answer.pays else 1)
