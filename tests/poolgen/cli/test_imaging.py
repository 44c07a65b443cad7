"""`poolgen imaging sequence` (poolgen/cli/imaging.py): pallets and the ship file on a small printed order,
exact counts; the five files are the same bytes for two runs of other seeds whose books a book key
numbers (print-sequence.csv depends on nothing else: so none of them says anything of outcomes); bad
options and folders refused in one line; a damaged pool file (`sequence`) or imaging file (`export`)
refused in one line, nothing written."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import polars as pl
import pytest

from poolgen.deliverables.printer import SHIP_FILES
from poolgen.deliverables.validation import new_validation_key
from tests.support import SEED_A, SEED_B, small_happy_holidays
from tests.support.cli import invoke, one_line


@pytest.fixture(scope="module")
def orders(tmp_path_factory) -> tuple[Path, Path]:
    """Two Happy Holidays orders of 20 books of 300 (two pools), of seeds A and B, one book key."""
    root = tmp_path_factory.mktemp("ship")
    new_validation_key(root / "book.key")
    spec = small_happy_holidays(root, 6000)
    runs = []
    for name, seed in (("a", SEED_A), ("b", SEED_B)):
        path = root / f"{name}.seed"
        path.write_text(seed.hex() + "\n")
        path.chmod(0o600)
        made = invoke("generate", spec, "--out", root / "runs", "--seed-file", path, "--run-id", name,
                      "--workers", "1", "--book-key", root / "book.key", "--unsigned")
        assert made.exit_code == 0, made.output
        runs.append(root / "runs" / name)
    return runs[0], runs[1]


def test_pallets_and_the_ship_file_of_an_order(orders, tmp_path):
    out = tmp_path / "ship"
    result = invoke("imaging", "sequence", orders[0], "--out", out, "--packs-per-carton", 3,
                    "--cartons-per-pallet", 2)
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"sequence {out}: 20 packs in print order, 7 cartons of up to 3, 4 pallets of "
                             f"up to 2 cartons (print-sequence.csv, cartons.csv, pallets.csv, shipment.csv, "
                             f"SHA256SUMS: no outcome, no pool)\n")
    assert sorted(p.name for p in out.iterdir()) == sorted(SHIP_FILES)
    assert {p.stat().st_mode & 0o777 for p in out.iterdir()} == {0o600}
    assert out.stat().st_mode & 0o777 == 0o755  # an output folder: it holds no outcome
    seq = pl.read_csv(out / "print-sequence.csv", infer_schema=False)
    pallets = pl.read_csv(out / "pallets.csv", infer_schema=False)
    assert pallets.rows() == [
        (str(p + 1), str(2 * p + 1), str(min(2 * p + 2, 7)), str(min(2, 7 - 2 * p)), str(6 * p + 1),
         str(min(6 * p + 6, 20)), str(min(6, 20 - 6 * p)), seq["first_barcode"][6 * p],
         seq["last_barcode"][min(6 * p + 5, 19)], str(300 * min(6, 20 - 6 * p))) for p in range(4)]
    sums = {name: hashlib.sha256((out / name).read_bytes()).hexdigest() for name in SHIP_FILES[:4]}
    assert (out / "SHA256SUMS").read_text() == "".join(f"{h}  {n}\n" for n, h in sums.items())
    ship = pl.read_csv(out / "shipment.csv", infer_schema=False).row(0, named=True)
    assert ship == {"game": "465", "packs": "20", "tickets": "6000", "cartons": "7", "pallets": "4",
                    "packs_per_carton": "3", "cartons_per_pallet": "2", "first_sequence": "1",
                    "last_sequence": "20", "print_sequence_sha256": sums["print-sequence.csv"],
                    "cartons_sha256": sums["cartons.csv"], "pallets_sha256": sums["pallets.csv"]}


def test_the_files_are_the_same_bytes_whatever_the_outcomes(orders, tmp_path):
    a, b = orders
    assert (a / "pool-p1.parquet").read_bytes() != (b / "pool-p1.parquet").read_bytes()  # other outcomes
    for run in (a, b):
        result = invoke("imaging", "sequence", run, "--out", tmp_path / run.name)
        assert result.exit_code == 0, result.output
    for name in SHIP_FILES:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    text = "".join((tmp_path / "a" / name).read_text() for name in SHIP_FILES)
    assert not any(word in text for word in ("p1", "p2", "prize", "tier", "pool"))
    # the defaults, 20 packs a carton and 40 cartons a pallet: one carton on one pallet
    assert (tmp_path / "a" / "pallets.csv").read_text().splitlines()[1].startswith("1,1,1,1,1,20,20,")


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--cartons-per-pallet", "0", "--cartons-per-pallet"),
    ("--cartons-per-pallet", "100001", "--cartons-per-pallet"),
    ("--packs-per-carton", "0", "--packs-per-carton"),
    ("--cartons-per-pallet", "two", "--cartons-per-pallet"),
])
def test_bad_counts_are_refused_in_one_line(orders, tmp_path, option, value, message):
    result = invoke("imaging", "sequence", orders[0], "--out", tmp_path / "x", option, value)
    one_line(result, "poolgen", message)
    assert not (tmp_path / "x").exists()


def test_an_existing_folder_is_refused_in_one_line(orders, tmp_path):
    one_line(invoke("imaging", "sequence", orders[0], "--out", tmp_path), "poolgen",
             f"{tmp_path}: already exists; give a new folder")


def _damage(pool: Path, how: str) -> None:
    if how == "cut short":
        pool.write_bytes(pool.read_bytes()[:1000])
        return
    if how == "a row short":
        pl.read_parquet(pool).head(2999).write_parquet(pool)
        return
    pool.unlink()
    if how == "a folder":
        pool.mkdir()
    elif how == "a link to nothing":
        pool.symlink_to(pool.with_name("gone"))
    elif how == "a pipe":
        os.mkfifo(pool)
    elif how == "garbage":
        pool.write_bytes(bytes(range(256)) * 16)


@pytest.mark.parametrize(("how", "message"), [
    ("garbage", "not a usable pool file: does not start with PAR1: not a Parquet file"),
    ("cut short", "not a usable pool file: does not end with PAR1: not a Parquet file (or cut short)"),
    ("a folder", "is a folder, not a pool file"),
    ("a link to nothing", "a symbolic link in a loop or to nothing; not a pool file"),
    ("a pipe", "is not a regular file (a pipe, device or socket); not a pool file"),
    ("a row short", None),
])
def test_a_damaged_pool_file_is_one_line_and_writes_nothing(orders, tmp_path, how, message):
    """The pool files' book column is read through the run folder's boundary: until 2026-12-04 polars
    read it directly, so a damaged file was a 112-line traceback (exit 1) and a pipe a hang that SIGTERM
    could not end."""
    run = tmp_path / "run"
    shutil.copytree(orders[0], run)
    pool = run / "pool-p1.parquet"
    _damage(pool, how)
    result = invoke("imaging", "sequence", run, "--out", tmp_path / "ship")
    if message is None:
        one_line(result, "poolgen", "pool-p1.parquet: column 'book' holds 2,999 book numbers; the manifest "
                                    "lists 3,000 tickets")
    else:
        one_line(result, "poolgen", f"{run}: cannot read pool p1 (pool-p1.parquet): {pool}: {message}")
    assert not (tmp_path / "ship").exists()


@pytest.mark.parametrize(("how", "message"), [
    ("garbage", "not a usable imaging file: does not start with PAR1: not a Parquet file"),
    ("cut short", "not a usable imaging file: does not end with PAR1: not a Parquet file (or cut short)"),
    ("a folder", "is a folder, not an imaging file"),
    ("a link to nothing", "a symbolic link in a loop or to nothing; not an imaging file"),
    ("a pipe", "is not a regular file (a pipe, device or socket); not an imaging file"),
])
@pytest.mark.parametrize("form", ["csv", "fixed"])
def test_a_damaged_imaging_file_is_one_line_for_export_and_writes_nothing(orders, tmp_path, how, message,
                                                                       form):
    """`imaging export` reads each imaging file through the run folder's boundary: until 2026-12-04 a
    damaged one was a traceback (polars' ComputeError, exit 1) and a folder or pipe 'is missing'."""
    run = tmp_path / "run"
    shutil.copytree(orders[0], run)
    imaging = run / "imaging-p1.parquet"
    _damage(imaging, how)
    spec = ["--spec", small_happy_holidays(tmp_path, 6000)] if form == "fixed" else []
    result = invoke("imaging", "export", run, "--format", form, *spec, "--out", tmp_path / "out.txt")
    one_line(result, "poolgen", f"{imaging}: {message}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["happy_holidays.toml", "run"] if spec else ["run"]
