"""`poolgen merkle-proof` (formerly `prove`): one ticket belongs to a signed pool, without the pool file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from poolgen.backoffice.errors import BackOfficeError
from poolgen.cli.common import echo, reports_errors


@reports_errors
def prove(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The run folder.")],
    ticket: Annotated[str, typer.Argument(
        metavar="TICKET", help="The ticket's identity, e.g. 465-0000004-034 or d1.00x1-0000123, or a printed "
                               "ticket's 15-digit barcode number.")],
    virn: Annotated[str | None, typer.Argument(
        metavar="VIRN", help="A printed ticket's validation number (required: a proof is given only to its "
                             "holder); none for an eInstant share.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the proof as JSON, for "
                                                         "`python -m audit check-proof`.")] = False,
) -> None:
    """Print TICKET's row with its Merkle path up to its pool's root in the signed manifest; a printed
    ticket's only against its VIRN (docs/publish-and-reveal.md)."""
    from poolgen.backoffice.tickets import parse_ticket, parse_virn  # lazy: start-up time (docs/scaling.md)
    from poolgen.run.merkle import ARITY  # lazy: polars and numpy, as above
    from poolgen.run.prove import prove_ticket  # lazy: as above

    if ticket.isascii() and ticket.isdigit():  # a barcode number: the printed id it encodes
        named = parse_ticket(ticket)
        if not named.check_digits_hold:
            raise BackOfficeError(f"{ticket}: not a barcode number (its check digits fail)")
        ticket = named.ticket_id
    proof = prove_ticket(run, ticket, None if virn is None else parse_virn(virn))
    if as_json:
        typer.echo(json.dumps(proof, indent=2))
        return
    echo(f"ticket {proof['ticket']}: pool {proof['pool']}, position {proof['position']:,} of "
         f"{proof['tickets']:,}, run {proof['run_id']}")
    for name, value in proof["row"].items():
        echo(f"  {name:<16} {value}")
    echo(f"leaf   {proof['leaf']}")
    echo(f"path   {len(proof['path'])} level(s), leaf upwards; at each, the other hashes of its group of "
         f"{ARITY}, in order, with this ticket's place marked *:")
    for i, step in enumerate(proof["path"], start=1):
        hashes = [*step["left"], "*", *step["right"]]
        echo(f"  {i:>3} {hashes[0]}")
        for h in hashes[1:]:
            echo(f"      {h}")
    echo(f"root   {proof['merkle']['root']} ({proof['merkle']['algorithm']}, docs/merkle.md)")
    echo(f"manifest.json SHA-256 {proof['manifest_sha256']}")
