"""`poolgen merkle-proof` (formerly `prove`): one ticket belongs to a signed pool, without the pool file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from poolgen.backoffice.errors import BackOfficeError
from poolgen.cli.common import echo, reports_errors, say


@reports_errors
def prove(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The run folder.")],
    ticket: Annotated[str, typer.Argument(
        metavar="TICKET", help="The ticket's identity, e.g. 465-0000004-034 or d1.00x1-0000123, or a printed "
                               "ticket's barcode number (15 digits; 16 for a game numbered 1000..9999).")],
    virn: Annotated[str | None, typer.Argument(
        metavar="VIRN", help="A printed ticket's validation number (required: a proof is given only to its "
                             "holder); none for an eInstant share.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the proof as JSON, for "
                                                         "`python -m audit check-proof`.")] = False,
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", exists=True, dir_okay=False, metavar="FILE",
        help="The signer's public key: the manifest's signature is checked with it before anything is "
             "proved (no proof from a run it does not verify). Without it the root is the run folder's "
             "word alone.")] = None,
) -> None:
    """Print TICKET's row with its Merkle path up to its pool's root in the run's manifest; a printed
    ticket's only against its VIRN (docs/publish-and-reveal.md).

    With --public-key the manifest's signature is checked first, so the proof shows TICKET in a pool the
    signer committed to. Without it nothing is checked but the folder's own consistency: the proof shows
    TICKET in the pool whose root this folder's manifest states, which only a check of that manifest's
    signature (--public-key, or `python -m audit check-proof` against the published bundle) ties to the
    signer. A line on stderr says which was done.
    """
    from poolgen.backoffice.tickets import parse_ticket, parse_virn  # lazy: start-up time (docs/scaling.md)
    from poolgen.run.merkle import ARITY  # lazy: polars and numpy, as above
    from poolgen.run.prove import prove_ticket  # lazy: as above

    if ticket.isascii() and ticket.isdigit():  # a barcode number: the printed id it encodes
        named = parse_ticket(ticket)
        if not named.check_digits_hold:
            raise BackOfficeError(f"{ticket}: not a barcode number (its check digits fail)")
        ticket = named.ticket_id
    proof = prove_ticket(run, ticket, None if virn is None else parse_virn(virn), public_key)
    if public_key is not None:
        say(f"manifest signature checked with {public_key}: the root below is the signer's")
    else:
        say("manifest signature not checked (no --public-key): the root below is this run folder's word "
            "alone; check it with --public-key, or the proof with `python -m audit check-proof`")
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
