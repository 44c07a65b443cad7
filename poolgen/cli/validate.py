"""`poolgen validate`: the reference validation desk (docs/back-office.md).

It answers a claim (a ticket's barcode number or printed id, and its validation number), or a CSV of
claims with `--batch`, from a run's validation files as the manifest vouches for them, through an index
built once per run; with `--ledger FILE.sqlite` it records every attempt and pays a ticket once. For
acceptance tests and small operators, not a central system.
"""

from __future__ import annotations

import csv
import io
import json
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from poolgen.backoffice.errors import BackOfficeError
from poolgen.cli.common import echo, reports_errors, say
from poolgen.files.read import READABLE_SECRET_FLAG, read_input
from poolgen.limits import MAX_BATCH_BYTES, MAX_BATCH_CLAIMS

if TYPE_CHECKING:  # types only: the command imports their modules when it runs (start-up time)
    from poolgen.backoffice.desk import Answer
    from poolgen.backoffice.tickets import Ticket


@reports_errors
def validate_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The run folder with validation files.")],
    ticket: Annotated[str | None, typer.Argument(
        metavar="TICKET", help="The barcode number (15 digits; 16 for a game numbered 1000..9999) or the "
                              "printed ticket id GGG-BBBBBBB-TTT.",
        show_default=False)] = None,
    virn: Annotated[str | None, typer.Argument(
        metavar="VIRN", help="The validation number under the latex.", show_default=False)] = None,
    validation_key: Annotated[Path | None, typer.Option(
        "--validation-key", metavar="FILE",
        help="Low-tier validation key: opens validation-low.bin.")] = None,
    high_validation_key: Annotated[Path | None, typer.Option(
        "--high-validation-key", metavar="FILE",
        help="High-tier validation key: opens validation-high.bin.")] = None,
    ledger: Annotated[Path | None, typer.Option(
        "--ledger", metavar="FILE.sqlite",
        help="Claims ledger: record every attempt, pay a ticket once.")] = None,
    books: Annotated[Path | None, typer.Option(
        "--books", metavar="BOOKS.sqlite",
        help="Books ledger: refuse a ticket whose book is not activated or settled (without it, book "
             "states are not checked).")] = None,
    batch: Annotated[Path | None, typer.Option(
        "--batch", metavar="CLAIMS.csv", help="Answer every claim of a CSV (columns ticket,virn).")] = None,
    desk: Annotated[str | None, typer.Option(
        "--desk", metavar="ID", show_default=False,
        help="This desk's id, in the ledger (default: this computer's host name).")] = None,
    clerk: Annotated[str | None, typer.Option(
        "--clerk", metavar="ID", show_default=False,
        help="The clerk's id, in the ledger (default: the login name running the command).")] = None,
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", metavar="FILE",
        help="The run's public key: the manifest's signature is verified first (required).")] = None,
    index_dir: Annotated[Path | None, typer.Option(
        "--index-dir", metavar="DIR",
        help="Where the run's desk index is kept (default ~/.cache/poolgen/desk; it keeps the 64 opened "
             "most recently, or $POOLGEN_DESK_INDEXES).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Answer in JSON (one object per line).")] = False,
    allow_readable_secret: Annotated[bool, typer.Option(
        READABLE_SECRET_FLAG, help="Use a validation key even if its group or others may read it (refused "
                                   "otherwise).")] = False,
) -> None:
    """Answer a claim. Exit 0: a prize (paid, with --ledger); 1: refused (not a winner, claim
    elsewhere, wrong validation number, unknown ticket, already paid, with --books a book not
    activated, returned or stolen); 2: unusable input. With --batch:
    0 once every claim is answered."""
    # here, not at module level: polars, numpy and cryptography would load with every poolgen command
    from poolgen.backoffice.desk import Desk  # lazy: start-up time (docs/scaling.md)
    from poolgen.backoffice.tickets import default_clerk, default_desk, parse_id  # lazy: start-up time
    from poolgen.backoffice.vouched import open_signed  # lazy: start-up time
    from poolgen.deliverables.validation import read_validation_key  # lazy: start-up time

    claims = _claims(ticket, virn, batch)
    if batch is not None and ledger is None:
        _once(claims, batch)
    desk = default_desk() if desk is None else parse_id(desk, "--desk")
    clerk = default_clerk() if clerk is None else parse_id(clerk, "--clerk")
    keys = {t: read_validation_key(k, allow_readable_secret)
            for t, k in (("low", validation_key), ("high", high_validation_key)) if k is not None}
    vouched = open_signed(run, public_key, "validate")
    office = Desk(vouched, keys, index_dir=index_dir, ledger=ledger, desk=desk, clerk=clerk, books=books)
    for line in office.cleared:
        say(line)
    try:
        answers = []
        for t, v in claims:
            answer = office.claim(t, v)
            answers.append(answer)
            _show(answer, as_json)
    finally:
        office.close()
    paid = sum(a.pays for a in answers)
    if batch is not None and ledger is None:
        say(f"{len(answers):,} claim(s) answered: {paid:,} prize(s), {len(answers) - paid:,} refused; "
            "nothing paid or recorded (no --ledger)")
    elif batch is not None:
        say(f"{len(answers):,} claim(s) answered: {paid:,} paid, {len(answers) - paid:,} refused")
    elif ledger is None and paid:  # a prize answered at a desk that records nothing: not paid
        say("nothing paid or recorded (no --ledger)")
    if office.ledger is not None and office.ledger.head and not as_json:  # the anchor kept (section 4)
        say(f"ledger {ledger}: head {office.ledger.head}")  # (JSON: each answer's `head`)
    if batch is None:
        raise typer.Exit(0 if answers[0].pays else 1)


def _once(claims: list[tuple[Ticket, str]], batch: Path) -> None:
    """Refuse a batch that names a ticket twice when no ledger would answer the repeat `already paid`:
    each would be answered "prize", and paid as often."""
    first: dict[str, int] = {}
    for line, (t, _) in enumerate(claims, start=2):  # every row was parsed: row i is line i + 2
        if t.barcode in first:
            raise BackOfficeError(f"{batch}: line {line}: ticket {t.barcode} again (line "
                                  f"{first[t.barcode]}); without --ledger a batch names each ticket once "
                                  "(with one, a repeat is answered `already paid`)")
        first[t.barcode] = line


def _show(answer: Answer, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(answer.to_json(), sort_keys=True))
    else:
        echo(answer.text)


def _claims(ticket: str | None, virn: str | None, batch: Path | None) -> list[tuple[Ticket, str]]:
    from poolgen.backoffice.tickets import parse_ticket, parse_virn  # lazy: start-up time (numpy)

    if batch is None:
        if ticket is None or virn is None:
            raise BackOfficeError("give TICKET and VIRN, or --batch CLAIMS.csv")
        return [(parse_ticket(ticket), parse_virn(virn))]
    if ticket is not None:
        raise BackOfficeError("give TICKET and VIRN, or --batch CLAIMS.csv, not both")
    data = read_input(batch, "claims", BackOfficeError, limit=MAX_BATCH_BYTES)
    try:
        rows = list(islice(csv.reader(io.StringIO(data.decode("utf-8"), newline="")), MAX_BATCH_CLAIMS + 2))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise BackOfficeError(f"{batch}: not a CSV file of claims: {exc}") from None
    if len(rows) > MAX_BATCH_CLAIMS + 1:  # the header and the claims
        raise BackOfficeError(f"{batch}: more than {MAX_BATCH_CLAIMS:,} claims; give them in batches of at "
                              "most that many")
    if not rows or rows[0] != ["ticket", "virn"]:
        bom = " (it begins with a byte-order mark: save it as UTF-8 without one)" \
            if data.startswith(b"\xef\xbb\xbf") else ""
        raise BackOfficeError(f"{batch}: its first line must be the header ticket,virn{bom}")
    out = []
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != 2:
            raise BackOfficeError(f"{batch}: line {n}: {len(row)} fields, not 2 (ticket,virn)")
        try:
            out.append((parse_ticket(row[0]), parse_virn(row[1])))
        except BackOfficeError as exc:
            raise BackOfficeError(f"{batch}: line {n}: {exc}") from None
    return out
