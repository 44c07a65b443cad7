"""`poolgen report`: the audit report of a run as a PDF."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from audit.cli import Bundles, CeremonyFile, EarlierManifests, PartyKeys, Reveal, SeedFile, progress_bar
from audit.read.limits import READABLE_SECRET_FLAG
from poolgen.cli.common import Force, Json, echo, reports_errors, write_output
from poolgen.errors import RunError
from poolgen.files.write import present

if TYPE_CHECKING:  # types only: reportlab and audit.verify cost every command's start-up (docs/scaling.md)
    from audit.verify import Report
    from poolgen.pdf.report.document import Verification


@reports_errors
def report_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="A run folder (holds manifest.json).")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE.pdf", help="The PDF to write.")],
    spec: Annotated[Path | None, typer.Option(
        "--spec", exists=True, dir_okay=False, metavar="FILE",
        help="The game's spec: adds the published-figure cross-check and the tiers' names (and, with "
             "--public-key, checks the figures against it).")] = None,
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", exists=True, dir_okay=False, metavar="FILE",
        help="The run's public key: runs the verification checklist and reports every step. "
             "Without it the report says verification was not run.")] = None,
    seed_file: SeedFile = None,
    ceremony: CeremonyFile = None,
    party_key: PartyKeys = None,
    ceremony_bundle: Bundles = None,
    earlier_manifest: EarlierManifests = None,
    validation_key: Annotated[Path | None, typer.Option(
        "--validation-key", metavar="FILE",
        help="The low-tier validation key: step 9 re-derives validation-low.bin.")] = None,
    high_validation_key: Annotated[Path | None, typer.Option(
        "--high-validation-key", metavar="FILE",
        help="The high-tier validation key: step 9 re-derives validation-high.bin.")] = None,
    book_key: Annotated[Path | None, typer.Option(
        "--book-key", metavar="FILE",
        help="The book key of a run whose book numbers are under one: step 3 checks the permutation "
             "(without it, that it is one) and step 7 regenerates with it.")] = None,
    allow_readable_secret: Annotated[bool, typer.Option(
        READABLE_SECRET_FLAG, help="Use a seed file, validation or book key even if its group or others "
                                   "may read it.")] = False,
    reveal: Reveal = False,
    internal: Annotated[bool, typer.Option(
        "--internal", help="The internal edition: adds where the prizes are (charts in print order, "
                           "the top prizes' positions); an outcome file, for those trusted with "
                           "outcomes.")] = False,
    force: Force = False,
    as_json: Json = False,
) -> None:
    """Write the audit report of a run: title page with the verdict, verification steps (the options of
    `poolgen verify`), published-figure cross-check (--spec), prize structure per pool, how the prizes
    are spread and the statistics. The default edition gives distributions only and names no ticket,
    book, serial or position; --internal adds them. Written mode 0600.

    Exit 0: written (and, with --public-key, every step asked for passes). 1: written, but
    verification fails. 2: unusable input, nothing written."""
    # Imported here, not with the module: reportlab costs every poolgen command about 0.2 s of CPU
    # at start, and only the PDF commands need it; polars and numpy likewise (docs/scaling.md).
    from poolgen.check.game import check_spec  # lazy: start-up time
    from poolgen.loader import load_spec  # lazy: start-up time
    from poolgen.pdf.report.document import build_report, run_verification  # lazy: start-up time
    from poolgen.run.folder import open_run  # lazy: start-up time
    from poolgen.run.reproduce import regenerate  # lazy: start-up time

    folder = open_run(run)
    if present(out) and not force:  # before minutes of verification, not after
        write_output(out, b"", force, "report")
    game = load_spec(spec) if spec is not None else None
    parties = tuple(_name_file(item) for item in party_key or ())
    with progress_bar() as bar:
        verification = run_verification(folder, public_key, spec, internal, seed_file=seed_file,
                                        ceremony=ceremony,
                                        party_keys=parties or None,
                                        ceremony_bundles=tuple(ceremony_bundle or ()),
                                        earlier_manifests=tuple(earlier_manifest or ()),
                                        regenerate=regenerate, allow_readable_secret=allow_readable_secret,
                                        validation_key=validation_key, book_key=book_key,
                                        high_validation_key=high_validation_key, reveal=reveal, progress=bar)
        bar(0, 1, "writing the report")
        pdf = build_report(folder, verification, game, check_spec(game) if game else None, internal)
    _written(out, pdf, len(folder.pools), verification, internal, force, as_json)


@reports_errors
def report_of_verdict(run: Path, out: Path, spec: Path, verdict: Report) -> None:
    """`poolgen report RUN --out OUT --spec SPEC` given the verdict `verify` of the same run, key, spec
    and seed has just reached (poolgen demo): audit's own report of the checklist, drawn rather than
    computed a second time."""
    from poolgen.check.game import check_spec  # lazy: start-up time
    from poolgen.loader import load_spec  # lazy: start-up time
    from poolgen.pdf.report.document import build_report, verification_of  # lazy: start-up time
    from poolgen.run.folder import open_run  # lazy: start-up time

    folder = open_run(run)
    if present(out):
        write_output(out, b"", False, "report")
    game = load_spec(spec)
    verification = verification_of(verdict)
    pdf = build_report(folder, verification, game, check_spec(game), False)
    _written(out, pdf, len(folder.pools), verification, False, False, False)


def _written(out: Path, pdf: bytes, pools: int, verification: Verification, internal: bool, force: bool,
             as_json: bool) -> None:
    """Write the report and say so; exit 1 when the checklist it reports fails."""
    write_output(out, pdf, force, "report")
    status = ("verification not run" if not verification.ran else
              "verification passes" if verification.ok else "VERIFICATION FAILS")
    edition = "INTERNAL edition (outcomes: restricted)" if internal else "public edition"
    if as_json:  # verified: null when the checklist was not run (no --public-key)
        typer.echo(json.dumps({"report": str(out), "mode": "0600", "bytes": len(pdf),
                               "sha256": hashlib.sha256(pdf).hexdigest(), "pools": pools,
                               "edition": "internal" if internal else "public", "outcomes": internal,
                               "verified": verification.ok if verification.ran else None}, indent=2))
    else:
        echo(f"report {out}: {pools} pool(s), {status}, {edition} (mode 0600)")
    if verification.ran and not verification.ok:
        raise typer.Exit(1)


def _name_file(item: str) -> tuple[str, Path]:
    """--party-key NAME=FILE as (name, path), as `verify` reads it."""
    name, sep, file = item.partition("=")
    if not sep or not name.strip():
        raise RunError(f"--party-key {item!r}: write NAME=FILE")
    return name.strip(), Path(file.strip())
