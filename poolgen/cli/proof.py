"""`poolgen proof`: a PDF of tickets of a run, drawn as a player sees them, with what they pay."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import reports_errors
from poolgen.files.write import write_atomic
from poolgen.pdf.proofs import build_proofs
from poolgen.pdf.selection import default_selection, find_tickets
from poolgen.run.folder import open_run, spec_for


@reports_errors
def proof_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="A run folder (holds manifest.json).")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE.pdf", help="The PDF to write.")],
    tickets: Annotated[list[str] | None, typer.Option(
        "--tickets", metavar="ID", help="A ticket id to prove (repeatable; commas also separate "
                                        "ids). Default: --per-tier tickets of every tier.")] = None,
    per_tier: Annotated[int, typer.Option(
        "--per-tier", min=1, metavar="N",
        help="Tickets of every tier, chosen with a DRBG seeded from the run's manifest.")] = 1,
    pool: Annotated[list[str] | None, typer.Option(
        "--pool", metavar="ID", help="Only this pool (repeatable). Default: every pool.")] = None,
    spec: Annotated[Path | None, typer.Option(
        "--spec", exists=True, dir_okay=False, metavar="FILE",
        help="The run's spec file (symbols and captions). Default: specs/<the manifest's spec "
             "file>.")] = None,
) -> None:
    """Draw tickets of a run as a player would see them (printed: the ticket face; eInstant: the
    fully revealed share), each with the prize its layout pays, one ticket a page. The same run
    always gives the same PDF."""
    folder = open_run(run)
    game = spec_for(folder, spec, must_match=True)
    pool_ids = [folder.pool(p)["id"] for p in dict.fromkeys(pool)] if pool else \
        [p["id"] for p in folder.pools]
    ids = [t.strip() for v in tickets or [] for t in v.replace(",", " ").split() if t.strip()]
    if ids:
        picks = find_tickets(folder, ids, pool_ids)
        selection = f"{len(picks)} requested ticket(s): {', '.join(dict.fromkeys(ids))}"
    else:
        picks = default_selection(folder, pool_ids, per_tier)
        selection = (f"{per_tier} ticket(s) of every tier of pool(s) {', '.join(pool_ids)}, "
                     f"drawn with the DRBG seeded SHA-256(\"poolgen/proof-selection/v1\" || "
                     f"manifest.json), stream (\"poolgen/v1\", \"proof\", pool)")
    pdf = build_proofs(folder, game, picks, selection)
    write_atomic(out, pdf)
    typer.echo(f"proof {out}: {len(picks)} ticket(s)")
