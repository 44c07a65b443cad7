"""`poolgen proof`: a PDF of specimen tickets of a run (by default) or, on request, of tickets of its
pools, drawn as a player sees them, with what they pay."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import Force, Json, echo, reports_errors, write_output


@reports_errors
def proof_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="A run folder (holds manifest.json).")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE.pdf", help="The PDF to write.")],
    tickets: Annotated[list[str] | None, typer.Option(
        "--tickets", metavar="ID", help="A ticket of the pool to draw (repeatable; commas also separate "
                                        "ids): an outcome file, as --real.")] = None,
    real: Annotated[bool, typer.Option(
        "--real", help="Tickets of the pool (--per-tier of every tier) instead of specimens: the PDF "
                       "then tells outcomes and is for those trusted with them (mode 0600).")] = False,
    per_tier: Annotated[int, typer.Option(
        "--per-tier", min=1, metavar="N",
        help="With --real: tickets of every tier, chosen with a DRBG seeded from the run's "
             "manifest.")] = 1,
    pool: Annotated[list[str] | None, typer.Option(
        "--pool", metavar="ID", help="Only this pool (repeatable). Default: every pool.")] = None,
    spec: Annotated[Path | None, typer.Option(
        "--spec", exists=True, dir_okay=False, metavar="FILE",
        help="The run's spec file (symbols and captions). Default: specs/<the manifest's spec "
             "file>.")] = None,
    force: Force = False,
    as_json: Json = False,
) -> None:
    """Draw one specimen of every tier as a player would see it (printed: the ticket face with its
    barcode; eInstant: the fully revealed share), each with the prize its layout pays, one a page.
    Specimens are laid out afresh from a stream of their own: no ticket of the pool, so the PDF
    may be circulated. --real or --tickets draws tickets of the pool instead (an outcome file).
    Written mode 0600; the same run always gives the same PDF."""
    # Imported here, not with the module: reportlab costs every poolgen command about 0.2 s of CPU
    # at start, and only the PDF commands need it; polars and numpy likewise (docs/scaling.md).
    from poolgen.pdf.proofs import build_proofs, build_specimen_proofs  # lazy: start-up time
    from poolgen.pdf.selection import default_selection, find_tickets  # lazy: start-up time
    from poolgen.pdf.specimens import SPECIMEN_LABEL, specimen_rows  # lazy: start-up time
    from poolgen.run.folder import open_run, spec_for  # lazy: start-up time

    folder = open_run(run)
    game = spec_for(folder, spec, must_match=True)
    pool_ids = [folder.pool(p)["id"] for p in dict.fromkeys(pool)] if pool else \
        [p["id"] for p in folder.pools]
    ids = [t.strip() for v in tickets or [] for t in v.replace(",", " ").split() if t.strip()]
    if ids:
        picks = find_tickets(folder, ids, pool_ids)
        selection = f"{len(picks)} requested ticket(s): {', '.join(dict.fromkeys(ids))}"
    elif real:
        picks = default_selection(folder, pool_ids, per_tier)
        selection = (f"{per_tier} ticket(s) of every tier of pool(s) {', '.join(pool_ids)}, "
                     f"drawn with the DRBG seeded SHA-256(\"poolgen/proof-selection/v1\" || "
                     f"manifest.json), stream (\"poolgen/v1\", \"proof\", pool)")
    else:
        specimens = specimen_rows(folder.manifest_bytes, game, pool_ids)
        selection = (f"one specimen of every tier of pool(s) {', '.join(pool_ids)}, laid out by the "
                     f"game's styles from the DRBG seeded SHA-256(\"{SPECIMEN_LABEL}\" || manifest.json), "
                     f"stream (\"{SPECIMEN_LABEL}\", \"{game.id}\", pool): no ticket of the pool "
                     f"(docs/proofs.md)")
        pdf = build_specimen_proofs(folder, game, specimens, selection)
        write_output(out, pdf, force, "proof")
        _said(as_json, f"proof {out}: {len(specimens)} specimen(s), no ticket of the pool (mode 0600)",
              out, pdf, "specimens", len(specimens), pool_ids, selection)
        return
    pdf = build_proofs(folder, game, picks, selection)
    write_output(out, pdf, force, "proof")
    _said(as_json, f"proof {out}: {len(picks)} ticket(s) of the pool: an OUTCOME file, for those trusted "
                   f"with outcomes only (mode 0600)", out, pdf, "tickets", len(picks), pool_ids, selection)


def _said(as_json: bool, text: str, out: Path, pdf: bytes, kind: str, count: int, pools: list[str],
          selection: str) -> None:
    """The line, or with --json the PDF written, its hash and what it shows (`outcomes`: tickets of the
    pool, for those trusted with them)."""
    if not as_json:
        echo(text)
        return
    typer.echo(json.dumps({"proof": str(out), "mode": "0600", "bytes": len(pdf),
                           "sha256": hashlib.sha256(pdf).hexdigest(), "drawn": kind, "count": count,
                           "outcomes": kind == "tickets", "pools": pools, "selection": selection}, indent=2))
