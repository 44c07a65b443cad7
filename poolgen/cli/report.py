"""`poolgen report`: the audit report of a run as a PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from poolgen.check.game import check_spec
from poolgen.cli.common import reports_errors
from poolgen.files.write import write_atomic
from poolgen.loader import load_spec
from poolgen.pdf.report.document import build_report, run_verification
from poolgen.run.folder import open_run


@reports_errors
def report_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="A run folder (holds manifest.json).")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE.pdf", help="The PDF to write.")],
    spec: Annotated[Path | None, typer.Option(
        "--spec", exists=True, dir_okay=False, metavar="FILE",
        help="The game's spec: adds the published-figure cross-check (and, with --public-key, "
             "checks the figures against it).")] = None,
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", exists=True, dir_okay=False, metavar="FILE",
        help="The run's public key: runs the verification checklist and reports every step. "
             "Without it the report says verification was not run.")] = None,
) -> None:
    """Write the audit report of a run: title page, verification steps, published-figure
    cross-check (--spec), prize structure per pool, and charts of how the prizes are spread.

    Exit 0: written (and, with --public-key, every step asked for passes). 1: written, but
    verification fails. 2: unusable input, nothing written."""
    folder = open_run(run)
    game = load_spec(spec) if spec is not None else None
    verification = run_verification(folder, public_key, spec)
    pdf = build_report(folder, verification, game, check_spec(game) if game else None)
    write_atomic(out, pdf)
    status = ("verification not run" if not verification.ran else
              "verification passes" if verification.ok else "VERIFICATION FAILS")
    typer.echo(f"report {out}: {len(folder.pools)} pool(s), {status}")
    if verification.ran and not verification.ok:
        raise typer.Exit(1)
