"""Step 9 names the place of what it refuses (docs/validation.md section 4): the pack list's first line
not as the manifest's books give it (a row's game cut from 2029 to 029, a book renumbered, a ticket range
shortened, a row dropped or added), and the two positions where one stored code is shown as two symbols
(a cell of a pool's layout changed, the imaging file not). Before, step 9 said only `not every book
once, sorted, ...` and `a stored code is not shown as one symbol`, leaving the auditor to search 3,000
rows or 10 lines. The run: Happy Holidays as game 2029, one pool of 3,000 tickets in 10 books of 300,
unsigned, with both validation files."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime

import polars as pl
import pytest

from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.steps.deliverables import check_deliverables
from audit.steps.pack_list import check_packs
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_happy_holidays, spec_path

KEYS = (bytes(range(32)), bytes(range(32, 64)))
HEAD = "packs.csv: not every book once, sorted, with tickets 0..299: "


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("places")
    text = spec_path("happy_holidays").read_text().replace("\nnumber = 465\n", "\nnumber = 2029\n")
    return generate(GenerateRequest(load_spec(small_happy_holidays(root, 3000, text)), SEED_A,
                                    now=datetime(2026, 12, 5, tzinfo=UTC), out=root / "runs", run_id="g4",
                                    validation_keys=KEYS)).folder


@pytest.fixture
def copy(run, tmp_path):
    shutil.copytree(run, tmp_path / "run")
    return tmp_path / "run"


def _failures(folder) -> list[str]:
    manifest = Manifest.parse((folder / "manifest.json").read_bytes())
    return [why for status, why in check_deliverables(folder, manifest, {"low": KEYS[0], "high": KEYS[1]},
                                                      None) if status == "fail"]


def _edit_packs(folder, edit) -> None:
    lines = (folder / "packs.csv").read_text().splitlines()
    edit(lines)
    (folder / "packs.csv").write_text("".join(f"{line}\n" for line in lines))


@pytest.mark.parametrize(("edit", "place"), [
    (lambda lines: lines.__setitem__(3, lines[3][1:]),
     "line 4 reads '029,2,0,299,300' where '2029,2,0,299,300' is expected"),
    (lambda lines: lines.__setitem__(3, "2029,12,0,299,300"),
     "line 4 reads '2029,12,0,299,300' where '2029,2,0,299,300' is expected"),
    (lambda lines: lines.__setitem__(3, "2029,2,0,298,299"),
     "line 4 reads '2029,2,0,298,299' where '2029,2,0,299,300' is expected"),
    (lambda lines: lines.__setitem__(3, "2029,,0,299,300"),
     "line 4 reads '2029,,0,299,300' where '2029,2,0,299,300' is expected"),
    (lambda lines: lines.pop(3), "line 4 reads '2029,3,0,299,300' where '2029,2,0,299,300' is expected"),
    (lambda lines: lines.pop(), "no line 11, where '2029,9,0,299,300' is expected"),
    (lambda lines: lines.append("2029,10,0,299,300"), "line 12 '2029,10,0,299,300' is past the last book"),
], ids=["game cut to 029", "book renumbered", "range shortened", "a blank cell", "row dropped",
        "last row dropped", "row added"])
def test_a_changed_pack_list_fails_step_9_naming_its_first_wrong_line(copy, edit, place):
    _edit_packs(copy, edit)
    assert _failures(copy) == [HEAD + place]


def test_a_layout_cell_changed_in_the_pool_alone_fails_step_9_naming_both_positions(copy):
    """Position 5's first spot stores another code than the one its imaging row shows: that code is then
    shown as two symbols, at position 5 and at another row storing it."""
    path = copy / "pool-p1.parquet"
    table = pl.read_parquet(path)
    spots = table["play_spot_0"].to_list()
    new = next(c for c in spots if c != spots[5])
    spots[5] = new
    table.with_columns(pl.Series("play_spot_0", spots, dtype=table["play_spot_0"].dtype)).write_parquet(path)
    image = pl.read_parquet(copy / "imaging-p1.parquet")
    other = max(i for i, c in enumerate(spots) if c == new and i != 5)
    shown = [tuple(image[c][i] for c in ("play_spot_0", "play_spot_0_text", "play_spot_0_caption"))
             for i in (5, other)]
    found = _failures(copy)
    assert found[-1] == (
        f"imaging-p1.parquet: column play_spot_0: a stored code is not shown as one symbol (or two as one): "
        f"code {new} is shown as {shown[0]} at position 5 and as {shown[1]} at position {other:,}")


def test_two_codes_shown_as_one_symbol_fail_step_9_naming_both_codes(copy):
    """Every row of one code shown as another code's symbol, text and caption: each code is shown as one
    symbol, but two codes as the same one."""
    table = pl.read_parquet(copy / "pool-p1.parquet")
    spots = table["play_spot_0"].to_list()
    a, b = sorted(set(spots))[:2]
    path = copy / "imaging-p1.parquet"
    image = pl.read_parquet(path)
    columns = ("play_spot_0", "play_spot_0_text", "play_spot_0_caption")
    like = spots.index(b)
    image.with_columns([pl.when(pl.Series([c == a for c in spots])).then(pl.lit(image[c][like]))
                        .otherwise(pl.col(c)).alias(c) for c in columns]).write_parquet(path)
    shown = tuple(image[c][like] for c in columns)
    assert _failures(copy)[-1] == (
        f"imaging-p1.parquet: column play_spot_0: a stored code is not shown as one symbol (or two as one): "
        f"codes {a} and {b} are both shown as {shown}")


def test_a_changed_validation_number_fails_step_9_naming_the_ticket_by_its_barcode(copy):
    """A VIRN changed in the imaging file: the validation file then lacks the record of that barcode and
    VIRN (the printer's ticket would not validate): both files' steps name the ticket by its barcode."""
    path = copy / "imaging-p1.parquet"
    image = pl.read_parquet(path)
    virns = image["virn"].to_list()
    virns[5] = virns[5][:3] + str((int(virns[5][3]) + 1) % 10) + virns[5][4:]
    image.with_columns(pl.Series("virn", virns)).write_parquet(path)
    code = image["barcode"][5]
    assert len(code) == 16
    found = _failures(copy)
    assert found == [f"validation-{tier}.bin: 1 ticket(s) without their record (missing or changed "
                     f"records), first the ticket of barcode {code}" for tier in ("low", "high")]


@pytest.mark.parametrize("number", ["2029", 2029.5, True, 10000, None])
def test_a_pack_list_under_a_game_number_that_is_none_fails_naming_it(run, number):
    """A re-signed manifest's game.number a string (or any non-number) whose barcodes happen to read the
    same: step 9's pack list said `could not be checked: ValueError: Unknown format code 'd' ...`."""
    with pytest.raises(VerificationError) as caught:
        check_packs(run, {"name": "packs.csv"}, range(10), 300, number, 3000)  # type: ignore[arg-type]
    assert caught.value.reason == (f"packs.csv: game.number {number!r} is not a game number: its books' "
                                   "lines cannot be recomputed")
