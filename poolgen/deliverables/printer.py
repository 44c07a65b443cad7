"""What a printer's prepress takes and checks (docs/validation.md, section 4): the imaging files of a
run exported as one CSV (or fixed-width records with their layout file, poolgen/deliverables/fixed.py)
in print sequence across the order, and an arriving file checked against the run's manifest.

Print sequence: the order's book slots in ascending order (pool k holds slots `first_book ..
first_book + books - 1`, so its pools in ascending `first_book`), and within a book its tickets 0 ..
per_book - 1: exactly the rows of the pools' imaging files, pool after pool in that order. A pack's
`sequence` is its slot + 1 and a ticket's is slot * per_book + its number in the book + 1: places in
the whole order's print run, also when a run holds only some of its pools.

The CSV has a first column `sequence`, then the imaging file's columns in its order, every value as
text exactly as the imaging file holds it (RFC 4180 quoting, UTF-8, LF line ends, a header line), and
after each spot C of a `print.art` prefix a column C_art: the art file of the code it shows, empty
where its symbol has none (`with_art`). It holds outcomes: mode 0600, for the printer only, sealed.

`print-sequence.csv` (every pack: sequence, game, book, first and last barcode, tickets, carton) and
`cartons.csv` (every carton of `packs_per_carton` consecutive packs: carton, first and last sequence,
packs, tickets, the book numbers) hold no outcome and name no pool; but a pack's sequence with the
public manifest's `first_book` tells its pool, so they go to the printer and warehouse only.

`pallets.csv` (every pallet of `cartons_per_pallet` consecutive cartons: pallet, first and last
carton, cartons, first and last sequence, packs, first and last barcode, tickets), `shipment.csv` (one
row of totals and the SHA-256 of the three files above) and `SHA256SUMS` (the four files, as
`sha256sum -c` reads it) are computed from print-sequence.csv's bytes and the two counts alone
(`shipment`), so they say nothing print-sequence.csv does not.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO

import polars as pl

from audit.errors import UnusableInput
from audit.read.runfiles import IMAGING_COLUMNS, MAX_RUN_FILE_BYTES, check_run_parquet, read_run_bytes
from poolgen.deliverables.fixed import art_prefix, fixed_layout, layout_csv, press_bytes, records
from poolgen.deliverables.identity import barcode
from poolgen.errors import OutputError, PoolgenError, RunError
from poolgen.files.read import open_input
from poolgen.files.write import discard, fsync_folder, new_temporary, present, refuse_run_folder
from poolgen.game.model import Game
from poolgen.interrupts import deferred, kept, pause_point

__all__ = ["SHIP_FILES", "arrival", "art_maps", "export_csv", "export_fixed", "layout_path", "print_order",
           "print_sequence", "print_tables", "shipment", "with_art", "write_new"]

# The files `poolgen imaging sequence` writes, in order (docs/validation.md, section 4).
SHIP_FILES = ("print-sequence.csv", "cartons.csv", "pallets.csv", "shipment.csv", "SHA256SUMS")


def print_order(manifest: Mapping[str, Any], run: Path) -> list[dict[str, Any]]:
    """The imaging deliverables of the run at `run` (named in a refusal), in print sequence (their pools by
    `first_book`)."""
    first = {p["id"]: p.get("first_book") or 0 for p in manifest["pools"]}
    imaging = [f for f in manifest.get("deliverables", []) if f.get("role") == "imaging"]
    if not imaging:
        raise RunError(f"{run}: the run has no imaging file (an eInstant, or a layout with no imaging rule)")
    return sorted(imaging, key=lambda f: first.get(f["pool"], 0))


def print_tables(run: Path, manifest: Mapping[str, Any]) -> list[tuple[str, Callable[[], pl.DataFrame]]]:
    """Each imaging file of the run in print sequence, and a loader of its export's text columns:
    `sequence` (the ticket's place in the order's print run), then the file's columns with the art
    columns. Every file is refused at once if missing or not Parquet within audit's bounds; its loader
    reads its bytes once, holds them to the manifest (`listed`) and exports from those very bytes, so a
    file swapped or rewritten after it was hashed never reaches the press."""
    art = art_maps(manifest, run)
    out: list[tuple[str, Callable[[], pl.DataFrame]]] = []
    for entry in print_order(manifest, run):
        if not os.path.lexists(run / entry["name"]):
            raise RunError(f"{run}: {entry['name']} is missing")
        try:  # audit's boundary: a bounded regular file of the folder (never a pipe), its footer and types
            check_run_parquet(run, entry["name"], "imaging", IMAGING_COLUMNS)
        except UnusableInput as exc:
            raise RunError(str(exc)) from None
        pool = next(p for p in manifest["pools"] if p["id"] == entry["pool"])
        start = (pool.get("first_book") or 0) * (pool["tickets"] // pool["books"])  # in the order
        out.append((entry["name"], partial(_exported_table, run, entry, start, art)))
    return out


def _exported_table(run: Path, entry: Mapping[str, Any], start: int,
                    art: Mapping[str, Mapping[str, str]]) -> pl.DataFrame:
    """An imaging file's export (`print_tables`) from its bytes, read once and checked by `listed`."""
    path = run / entry["name"]
    try:
        data = read_run_bytes(run, entry["name"], "imaging", MAX_RUN_FILE_BYTES)
    except UnusableInput as exc:
        raise RunError(str(exc)) from None
    listed(path, data, entry)
    pause_point(f"imaging-hashed-{entry['pool']}")  # the interrupt and swap tests' moment
    try:
        table = pl.read_parquet(io.BytesIO(data))
    except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
        raise RunError(f"{path}: not a usable imaging file: {' '.join(str(exc).split())[:200]}") from None
    return table.select((pl.int_range(0, pl.len(), dtype=pl.Int64) + start + 1).cast(pl.String)
                        .alias("sequence"), *with_art(table.columns, art))


def listed(path: Path, data: bytes, entry: Mapping[str, Any]) -> None:
    """RunError unless `data`, the file's bytes as read for the export, have the size and SHA-256 of its
    manifest entry: an imaging file swapped for another file of the run (its pool file: every ticket's
    tier, prize and salt), or changed, is never exported to the printer (a CSV or a record file cannot be
    checked on arrival as an imaging file is)."""
    size, want = len(data), entry.get("bytes")
    if size != want:
        shown = f"{want:,}" if isinstance(want, int) else repr(want)
        raise RunError(f"{path}: {size:,} bytes, not the {shown} the manifest lists for {entry['name']}; not "
                       "exporting it")
    if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
        raise RunError(f"{path}: its SHA-256 is not the one the manifest lists for {entry['name']} (a "
                       "changed or swapped file); not exporting it")


# Told how far an export is: (tickets written, tickets of the run's imaging files, what was done last).
Progress = Callable[[int, int, str], None]


def _quiet(done: int, total: int, what: str) -> None:
    """No one watching."""


def _started(run: Path, manifest: Mapping[str, Any], tables: list[tuple[str, Callable[[], pl.DataFrame]]],
             progress: Progress) -> int:
    """Tell the export's start; returns its total of tickets (the manifest's, pool by pool)."""
    tickets = {p["id"]: int(p["tickets"]) for p in manifest["pools"]}
    total = sum(tickets[entry["pool"]] for entry in print_order(manifest, run))
    progress(0, total, f"writing {len(tables)} imaging file(s)")
    return total


def export_csv(run: Path, manifest: Mapping[str, Any], out: Path, force: bool,
               progress: Progress = _quiet) -> int:
    """Write every imaging file of the run as one CSV in print sequence; returns the rows written.
    `progress` is told each imaging file written."""
    tables = print_tables(run, manifest)

    def write(f: BinaryIO) -> int:
        rows, total = 0, _started(run, manifest, tables, progress)
        for name, load in tables:
            data = load()
            data.write_csv(f, include_header=rows == 0)
            rows += data.height
            progress(rows, total, f"{name} written")
        return rows

    return write_new([(out, write)], force)[0]


def export_fixed(run: Path, manifest: Mapping[str, Any], game: Game, out: Path,
                 force: bool, progress: Progress = _quiet) -> tuple[int, Path, int]:
    """Write every imaging file of the run as fixed-width records in print sequence, and the layout
    beside it (`layout_path`); returns the rows written, the layout file and the record length.
    `progress` is told each imaging file written."""
    tables = print_tables(run, manifest)
    first: list[pl.DataFrame] = [tables[0][1]()]  # its columns fix the layout; written first, then let go
    fields = fixed_layout(game, first[0].columns, art_maps(manifest, run))
    layout = layout_csv(fields)

    def write(f: BinaryIO) -> int:
        rows, total = 0, _started(run, manifest, tables, progress)
        for name, load in tables:
            data = records(first.pop() if first else load(), fields, f"{run / name}", game.currency.sign)
            if game.currency.sign.isascii():
                data.write_csv(f, include_header=False, quote_style="never")
            else:  # one byte a character (docs/validation.md section 4): the sign in ISO 8859-15
                for at in range(0, data.height, 65536):  # a slice at a time: never the file's text whole
                    chunk = data.slice(at, 65536).write_csv(include_header=False, quote_style="never")
                    f.write(press_bytes(chunk.encode(), game.currency.sign))
            rows += data.height
            progress(rows, total, f"{name} written")
        return rows

    def write_layout(f: BinaryIO) -> int:
        return f.write(layout)

    rows = write_new([(out, write), (layout_path(out), write_layout)], force)[0]
    return rows, layout_path(out), fields[-1].end


def layout_path(out: Path) -> Path:
    """The layout file of fixed-width records `out`: NAME.layout.csv beside NAME.EXT (or NAME)."""
    return out.with_name(f"{out.stem}.layout.csv")


def write_new(files: list[tuple[Path, Callable[[BinaryIO], int]]], force: bool) -> list[int]:
    """Write each file by its writer, each whole or not at all: all under temporary names (0600), then
    put in place one after the other; an existing file is refused unless `force` (then replaced).
    Returns what the writers returned."""
    for out, _ in files:
        refuse_run_folder(out, "export")
        if os.path.isdir(out):
            raise OutputError(f"{out}: is a folder; give a file's name")
        if present(out) and not force:
            raise OutputError(f"{out}: already exists; not overwriting it (--force replaces it)")
    tmps: list[Path] = []
    held: list[int] = []
    done: list[int] = []
    current = files[0][0]  # the file being written, for the message
    try:
        for out, write in files:
            current = out
            tmp, fd = new_temporary(out, 0o600)  # locked until renamed (poolgen.files.leftovers)
            tmps.append(tmp)
            held.append(fd)
            with os.fdopen(fd, "wb", closefd=False) as f:
                done.append(write(f))
                f.flush()
                os.fsync(f.fileno())
        pause_point("file-written")
        with deferred():  # Ctrl-C and SIGTERM wait: the files go in place together (or none does)
            for tmp, (out, _) in zip(tmps, files, strict=True):
                current = out
                if force:
                    os.replace(tmp, out)
                else:
                    os.link(tmp, out)  # fails if `out` appeared meanwhile: never replaces a file
                    tmp.unlink()
                kept(out)
                fsync_folder(out.parent)
    except FileExistsError:
        raise OutputError(f"{current}: already exists; not overwriting it (--force replaces it)") from None
    except OSError as exc:
        raise OutputError(f"{current}: cannot write: {exc.strerror or exc}") from None
    finally:
        for tmp in tmps:
            discard(tmp)
        for fd in held:
            os.close(fd)
    return done


def art_maps(manifest: Mapping[str, Any], run: Path) -> dict[str, dict[str, str]]:
    """The manifest's `print.art` as spot prefix -> {code: art file} (RunError naming the run at `run` if it
    is not one)."""
    try:
        entries = manifest.get("print", {}).get("art", [])
        return {str(e["spots"]): {str(s["code"]): str(s["art"]) for s in e["symbols"]} for e in entries}
    except (AttributeError, KeyError, TypeError):
        raise RunError(f"{run}: the manifest's print.art is not a list of spots with their symbols' code "
                       "and art") from None


def with_art(columns: list[str], art: Mapping[str, Mapping[str, str]]) -> list[pl.Expr]:
    """The imaging columns as text, each spot C with art followed by C_art (after C, C_text, C_caption):
    the art file of the code C shows, empty where its symbol has none."""
    out = []
    for c in columns:
        out.append(pl.col(c).cast(pl.String))
        spot = c.removesuffix("_caption")
        prefix = art_prefix(spot, art)
        if c.endswith("_caption") and spot in columns and prefix is not None:
            out.append(pl.col(spot).cast(pl.String).replace_strict(art[prefix], default="",
                                                                   return_dtype=pl.String)
                       .alias(f"{spot}_art"))
    return out


def arrival(path: Path, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The manifest's deliverable entry an arriving file is, by name, size and SHA-256; RunError
    saying how it differs if it is not."""
    h = hashlib.sha256()
    size = 0
    with open_input(path, "deliverable", PoolgenError) as f:  # exit 2: not a file to compare at all
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    digest = h.hexdigest()
    entries = [f for f in manifest.get("deliverables", []) if "sha256" in f]
    by_hash = [f for f in entries if f["sha256"] == digest and f.get("bytes") == size]
    if by_hash:
        return {**by_hash[0], "received_as": path.name}
    named = [f for f in entries if f["name"] == path.name]
    if named:
        raise RunError(f"{path}: NOT the {named[0]['name']} the manifest lists: {size:,} bytes with SHA-256 "
                       f"{digest}, the manifest says {named[0]['bytes']:,} bytes, {named[0]['sha256']}")
    raise RunError(f"{path}: no file of the manifest has its SHA-256 {digest} ({size:,} bytes)")


def print_sequence(book_column: Callable[[str], pl.Series], manifest: Mapping[str, Any],
                   packs_per_carton: int) -> tuple[bytes, bytes]:
    """(print-sequence.csv, cartons.csv) of a printed run: where each pack (book) is in print order
    and which carton it goes into; no outcome, no pool id (docs/validation.md, section 4).
    `book_column(POOL)` is the `book` column of that pool's file, read through the run folder's
    boundary (a bounded regular file: never a pipe that would block, never a traceback)."""
    game = manifest["game"]["number"]
    pools = sorted(manifest["pools"], key=lambda p: p.get("first_book") or 0)
    books: list[int] = []
    slots: list[int] = []
    for p in pools:
        column = book_column(p["id"])
        if column.len() != p["tickets"] or column.null_count():
            raise RunError(f"{p['file']['name']}: column 'book' holds {column.len() - column.null_count():,} "
                           f"book numbers; the manifest lists {p['tickets']:,} tickets")
        books += column.gather_every(int(p["tickets"] // p["books"])).to_list()
        slots += range((p.get("first_book") or 0) + 1, (p.get("first_book") or 0) + p["books"] + 1)
    per_book = int(pools[0]["tickets"] // pools[0]["books"])
    seq = pl.DataFrame({"sequence": slots, "book": books})  # the pack's place in the order's print order
    seq = seq.with_columns(
        pl.lit(f"{game:03d}").alias("game"),
        pl.col("book").map_elements(lambda b: barcode(game, b, 0),
                                    return_dtype=pl.String).alias("first_barcode"),
        pl.col("book").map_elements(lambda b: barcode(game, b, per_book - 1),
                                    return_dtype=pl.String).alias("last_barcode"),
        pl.lit(per_book).alias("tickets"),
        ((pl.col("sequence") - 1) // packs_per_carton + 1).alias("carton"))
    cartons = (seq.group_by("carton", maintain_order=True)
               .agg(pl.col("sequence").min().alias("first_sequence"),
                    pl.col("sequence").max().alias("last_sequence"), pl.len().alias("packs"),
                    pl.col("tickets").sum().alias("tickets"),
                    pl.col("book").cast(pl.String).str.join(" ").alias("books")))
    out = []
    columns = ("sequence", "game", "book", "first_barcode", "last_barcode", "tickets", "carton")
    for table in (seq.select(*columns), cartons):
        buf = io.BytesIO()
        table.write_csv(buf)
        out.append(buf.getvalue())
    return out[0], out[1]


def _csv(table: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    table.write_csv(buf)
    return buf.getvalue()


def shipment(sequence: bytes, cartons: bytes, packs_per_carton: int,
             cartons_per_pallet: int) -> dict[str, bytes]:
    """pallets.csv, shipment.csv and SHA256SUMS from print-sequence.csv and cartons.csv as written
    (`print_sequence`): every value is print-sequence.csv's text or counted from it, so the files say
    nothing it does not. A pallet holds cartons (c - 1) // cartons_per_pallet + 1 of the order's
    numbering, as a carton holds packs."""
    seq = pl.read_csv(io.BytesIO(sequence), infer_schema=False)
    if seq.is_empty():
        raise RunError("print-sequence.csv lists no pack")
    seq = seq.with_columns(pl.col("sequence", "carton", "tickets").cast(pl.Int64)).with_columns(
        ((pl.col("carton") - 1) // cartons_per_pallet + 1).alias("pallet"))
    pallets = (seq.group_by("pallet", maintain_order=True)
               .agg(pl.col("carton").min().alias("first_carton"), pl.col("carton").max().alias("last_carton"),
                    pl.col("carton").n_unique().alias("cartons"),
                    pl.col("sequence").min().alias("first_sequence"),
                    pl.col("sequence").max().alias("last_sequence"), pl.len().alias("packs"),
                    pl.col("first_barcode").sort_by("sequence").first(),
                    pl.col("last_barcode").sort_by("sequence").last(), pl.col("tickets").sum()))
    files = {"print-sequence.csv": sequence, "cartons.csv": cartons, "pallets.csv": _csv(pallets)}
    numbers: list[int] = seq["sequence"].to_list()
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    files["shipment.csv"] = _csv(pl.DataFrame({
        "game": seq["game"][0], "packs": seq.height, "tickets": int(seq["tickets"].sum()),
        "cartons": seq["carton"].n_unique(), "pallets": pallets.height, "packs_per_carton": packs_per_carton,
        "cartons_per_pallet": cartons_per_pallet, "first_sequence": min(numbers),
        "last_sequence": max(numbers),
        "print_sequence_sha256": digests["print-sequence.csv"], "cartons_sha256": digests["cartons.csv"],
        "pallets_sha256": digests["pallets.csv"]}))
    files["SHA256SUMS"] = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n"
                                  for name, data in files.items()).encode()
    return files
