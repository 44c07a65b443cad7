"""`poolgen validate`: a reference validation desk, and the validation-key options of `generate`.

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
from poolgen.deliverables.validation import ValidationError, read_validation_key
from poolgen.money import parse_printed

ValidationKey = Annotated[Path | None, typer.Option(
    "--validation-key", metavar="FILE",
    help="Low-tier validation key (`poolgen keys validation new`): writes validation-low.bin.")]
HighValidationKey = Annotated[Path | None, typer.Option(
    "--high-validation-key", metavar="FILE",
    help="High-tier validation key, a different one: writes validation-high.bin.")]
HighTierPrize = Annotated[str | None, typer.Option(
    "--high-tier-prize", metavar="AMOUNT",
    help="Prizes at or above AMOUNT (e.g. \"600.00\") are high-tier. Default: the spec's "
         "printed.high_tier_prize, else 600.00.")]


def validation_keys(spec, low: Path | None, high: Path | None) -> tuple[bytes, bytes] | None:
    """Both keys or neither; they must differ; printed games only."""
    if low is None and high is None:
        return None
    if low is None or high is None:
        raise ValidationError("give both --validation-key and --high-validation-key, or neither")
    if spec.kind != "printed":
        raise ValidationError(f"{spec.path.name}: validation files are for printed games; an eInstant's "
                              "pool file is its serving order")
    keys = (read_validation_key(low), read_validation_key(high))
    if keys[0] == keys[1]:
        raise ValidationError("--validation-key and --high-validation-key are the same key; use two")
    return keys


def parse_threshold(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        cents, _ = parse_printed(value)
    except Exception:
        cents = 0
    if cents <= 0:
        raise ValidationError(f"--high-tier-prize {value!r}: give an amount such as 600.00")
    return cents


@reports_errors
def validate_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The run folder with validation files.")],
    barcode: Annotated[str, typer.Argument(metavar="BARCODE", help="The ticket's 15-digit barcode number.")],
    virn: Annotated[str, typer.Argument(metavar="VIRN", help="The validation number under the latex.")],
    validation_key: ValidationKey = None,
    high_validation_key: HighValidationKey = None,
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
