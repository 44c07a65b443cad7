"""`poolgen imaging`: the printer's side of a printed run's imaging files (docs/validation.md, 4)."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import Force, Json, echo, reports_errors, say, say_vouched, write_output
from poolgen.errors import RunError
from poolgen.files.read import file_sha256, read_input
from poolgen.files.write import present, staged_folder

# Each command imports the modules doing its work (polars, numpy, cryptography) when it runs, not this
# module: they would load with every poolgen command, --help included (start-up time, docs/scaling.md).

MAX_PER = 100_000  # packs a carton, cartons a pallet: far above any real one, a typo's bound

app = typer.Typer(no_args_is_help=True, help="Imaging files for the printer: export them as CSV or "
                                              "fixed-width records in print sequence; sequence: packs, "
                                              "cartons and pallets in print order; check one on arrival "
                                              "against the manifest.")


class Format(StrEnum):
    """What `imaging export` writes."""

    csv = "csv"
    fixed = "fixed"


@app.command("export")
@reports_errors
def export_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="A printed run folder (holds manifest.json).")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="The file to write (mode 0600).")],
    form: Annotated[Format, typer.Option(
        "--format", metavar="csv|fixed", help="csv (the default): one CSV; fixed: fixed-width records, "
                                              "their layout in FILE's name .layout.csv.")] = Format.csv,
    spec: Annotated[Path | None, typer.Option(
        "--spec", exists=True, dir_okay=False, metavar="SPEC",
        help="With --format fixed: the run's spec (its symbol tables fix the widths). Default: "
             "specs/<the manifest's spec file>.")] = None,
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", metavar="FILE",
        help="The signer's public key: the manifest's signature is checked with it before any imaging file "
             "is read. Without it the files are held only to the manifest in RUN: the run folder's word "
             "alone.")] = None,
    force: Force = False,
    as_json: Json = False,
) -> None:
    """Write every imaging file of RUN as one CSV in print sequence across the order: a `sequence`
    column (1, 2, ...), then the imaging file's columns as text, and where the spec gave its symbols
    `art`, each such spot's art file in a `<spot>_art` column (docs/validation.md, section 4). With
    --format fixed, the same fields as fixed-width ASCII records, one a ticket, each padded to the width
    its layout file (NAME.layout.csv beside FILE) states. It holds outcomes: for the printer only,
    sealed to its key (`poolgen seal`).

    Each imaging file is exported only if its size and SHA-256 are the manifest's. With --public-key
    the manifest's signature is checked first, so those are the signer's; without it, they are the run
    folder's word alone (whoever changes a file can change its entry). A line on stderr says which."""
    from audit.cli import progress_bar  # lazy: start-up time
    from poolgen.deliverables.printer import export_csv, export_fixed  # lazy: start-up time
    from poolgen.run.folder import open_run, spec_for  # lazy: start-up time
    from poolgen.run.publish import signed_by  # lazy: start-up time

    folder = open_run(run)
    if public_key is not None:  # before any imaging file (or the spec) is read, or anything written
        signed_by(folder, public_key, "not exporting")
    checked = {"signature_checked": public_key is not None}
    if form is Format.csv:
        if spec is not None:
            raise RunError("--spec: only --format fixed reads a spec; the CSV needs none")
        with progress_bar() as bar:  # on a terminal only
            rows = export_csv(folder.path, folder.manifest, out, force, progress=bar)
        say_vouched(public_key, "exported")
        _exported(as_json, f"imaging {out}: {rows:,} tickets in print sequence (mode 0600: outcomes, the "
                           f"printer only)", out, {"format": "csv", "tickets": rows, **checked})
        return
    game = spec_for(folder, spec, must_match=True)
    with progress_bar() as bar:
        rows, layout, length = export_fixed(folder.path, folder.manifest, game, out, force, progress=bar)
    say_vouched(public_key, "exported")
    _exported(as_json, f"imaging {out}: {rows:,} tickets in print sequence, fixed-width records of "
                       f"{length:,} characters and LF, layout {layout} (mode 0600: outcomes, the printer "
                       f"only)",
              out, {"format": "fixed", "tickets": rows, "record_characters": length, "layout": str(layout),
                    "layout_sha256": file_sha256(Path(layout)), **checked})



def _exported(as_json: bool, text: str, out: Path, facts: dict[str, object]) -> None:
    """The line, or with --json the file written, its SHA-256 (read back: it is written in parts) and
    `facts`; `outcomes`: it holds them, for the printer only."""
    if as_json:
        typer.echo(json.dumps({"imaging": str(out), "mode": "0600", "sha256": file_sha256(out), **facts,
                               "outcomes": True}, indent=2))
    else:
        echo(text)


@app.command("check")
@reports_errors
def check_cmd(
    files: Annotated[list[Path], typer.Argument(metavar="FILE", help="Files as they arrived.")],
    manifest: Annotated[Path, typer.Option("--manifest", metavar="FILE",
                                           help="The run's manifest.json (manifest.sig beside it).")],
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", metavar="FILE", help="The signer's public key: the manifest's signature is checked "
                                             "first.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Check that each FILE is a deliverable the manifest lists, byte for byte (size and SHA-256).
    Exit 0 if every file is, 1 if one is not."""
    from audit.read.manifest import signature_problem  # lazy: start-up time
    from poolgen.deliverables.printer import arrival  # lazy: start-up time
    from poolgen.run.folder import read_manifest  # lazy: start-up time
    from poolgen.run.signing import fingerprint, load_public_key  # lazy: start-up time

    data, doc = read_manifest(manifest)
    signed = "signature not checked (give --public-key)"
    if public_key is not None:
        key = load_public_key(public_key)
        sig = manifest.with_name("manifest.sig")
        problem = (signature_problem(data, read_input(sig, "signature", RunError), key) if sig.is_file()
                   else f"{sig}: no signature beside the manifest")
        if problem:
            raise RunError(f"{manifest}: {problem}")
        signed = f"signature verifies with key {fingerprint(key)}"
    results = []
    for f in files:
        try:
            entry = arrival(f, doc)
            results.append({"file": str(f), "ok": True, "is": entry["name"], "role": entry.get("role"),
                            "pool": entry.get("pool"), "bytes": entry["bytes"], "sha256": entry["sha256"]})
        except RunError as exc:
            results.append({"file": str(f), "ok": False, "why": str(exc)})
    if as_json:
        typer.echo(json.dumps({"manifest": str(manifest), "signature": signed, "files": results}, indent=2))
    else:
        say(f"manifest {manifest}: {signed}")
        for r in results:
            echo(f"{r['file']}: is {r['is']} of run {doc.get('run_id')} ({r['role']}, {r['bytes']:,} "
                       f"bytes, SHA-256 {r['sha256']})" if r["ok"] else f"NOT a file of the run: {r['why']}")
    if not all(r["ok"] for r in results):
        raise typer.Exit(1)


@app.command("sequence")
@reports_errors
def sequence_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="A printed run folder (holds manifest.json).")],
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="A new folder for the files.")],
    packs_per_carton: Annotated[int, typer.Option("--packs-per-carton", min=1, max=MAX_PER, metavar="N",
                                                  help="Packs (books) a carton holds.")] = 20,
    cartons_per_pallet: Annotated[int, typer.Option("--cartons-per-pallet", min=1, max=MAX_PER, metavar="M",
                                                    help="Cartons a pallet holds.")] = 40,
    as_json: Json = False,
) -> None:
    """Write, for the printer and the warehouse, DIR/print-sequence.csv (every pack in print order:
    its place in the order's print run, book, first and last barcode, tickets, carton),
    DIR/cartons.csv (every carton: its packs' places and book numbers), DIR/pallets.csv (every
    pallet: its cartons, first and last pack and barcode, tickets), DIR/shipment.csv (the totals and
    the SHA-256 of the three) and DIR/SHA256SUMS (`sha256sum -c SHA256SUMS` checks all four). No
    outcome and no pool id is in them (docs/validation.md, section 4)."""
    from poolgen.deliverables.printer import SHIP_FILES, print_sequence, shipment  # lazy: start-up time
    from poolgen.run.folder import open_run  # lazy: start-up time

    folder = open_run(run)
    if folder.kind != "printed":
        raise RunError(f"{run}: not a printed run; an eInstant has no packs")
    if present(out):
        raise RunError(f"{out}: already exists; give a new folder")
    for pool in folder.pools:
        folder.require(pool["id"], ["book"])
    sequence, cartons = print_sequence(lambda pid: folder.read(pid, ["book"])["book"], folder.manifest,
                                       packs_per_carton)
    files = shipment(sequence, cartons, packs_per_carton, cartons_per_pallet)
    with staged_folder(out, mode=0o755) as staged:  # whole (SHA256SUMS too) or absent; no outcome: 0755
        for name in SHIP_FILES:
            write_output(staged / name, files[name], False, name)
    packs, boxes, pallets = (files[n].count(b"\n") - 1 for n in SHIP_FILES[:3])
    if as_json:
        typer.echo(json.dumps({"sequence": str(out), "packs": packs, "cartons": boxes, "pallets": pallets,
                               "packs_per_carton": packs_per_carton, "cartons_per_pallet": cartons_per_pallet,
                               "files": [{"name": n, "sha256": hashlib.sha256(files[n]).hexdigest()}
                                         for n in SHIP_FILES], "outcomes": False}, indent=2))
        return
    echo(f"sequence {out}: {packs:,} pack{'s' * (packs != 1)} in print order, {boxes:,} "
               f"carton{'s' * (boxes != 1)} of up to {packs_per_carton}, {pallets:,} "
               f"pallet{'s' * (pallets != 1)} of up to {cartons_per_pallet} cartons "
               f"({', '.join(SHIP_FILES)}: no outcome, no pool)")
