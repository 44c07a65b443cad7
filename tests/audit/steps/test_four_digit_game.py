"""Audit of a game numbered 1000..9999 (docs/validation.md section 2; docs/manifest.md): step 3
recomputes its `GGGG-BBBBBBB-TTT` ids, step 5 holds `print.barcode` and `print.barcode_digits` to the
16-digit form, step 9 its 16-digit barcodes and its pack list's `GGGG`: a run whose identities were cut
to the game's last three digits (the workaround 4-digit games needed before) fails. The run: Happy
Holidays as game 2029, one pool of 3,000 tickets, unsigned, with both validation files."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime

import numpy as np
import polars as pl
import pytest

from audit.errors import VerificationError
from audit.read.fields import fixed_values
from audit.read.manifest import Manifest
from audit.steps.deliverables import check_deliverables
from audit.steps.identity import check_complete
from poolgen.deliverables.identity import barcode
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_happy_holidays, spec_path

KEYS = (bytes(range(32)), bytes(range(32, 64)))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("g2029")
    text = spec_path("happy_holidays").read_text().replace("\nnumber = 465\n", "\nnumber = 2029\n")
    return generate(GenerateRequest(load_spec(small_happy_holidays(root, 3000, text)), SEED_A,
                                    now=datetime(2026, 12, 4, tzinfo=UTC), out=root / "runs", run_id="g4",
                                    validation_keys=KEYS)).folder


@pytest.fixture
def copy(run, tmp_path):
    shutil.copytree(run, tmp_path / "run")
    return tmp_path / "run"


def _step9(folder) -> list[tuple[str, str]]:
    manifest = Manifest.parse((folder / "manifest.json").read_bytes())
    return list(check_deliverables(folder, manifest, {"low": KEYS[0], "high": KEYS[1]}, None))


def test_a_game_2029_run_passes_steps_3_5_and_9(run):
    manifest = Manifest.parse((run / "manifest.json").read_bytes())
    doc = json.loads((run / "manifest.json").read_bytes())
    assert (doc["print"]["barcode_digits"], doc["print"]["barcode"][:20]) == (16, "GGGG BBBBBBB TTT CC:")
    assert fixed_values(doc) == []
    table = pl.read_parquet(run / "pool-p1.parquet")
    assert table["ticket"][0].startswith("2029-")
    assert table["ticket"].str.len_bytes().unique().to_list() == [16]
    assert check_complete(table, manifest.pools[0], "printed", 300, 2029) == (
        "3,000 tickets at positions 0..2,999; every ticket id is the one its book and ticket number give (10 "
        "books (slots 0..9) x tickets 0..299, each once); every salt is 32 hex digits (that they are the "
        "seed's is step 7's to prove)")
    assert [s for s, _ in _step9(run)] == ["pass"] * 4
    assert (run / "packs.csv").read_text().splitlines()[1].startswith("2029,")


def test_a_four_digit_games_manifest_stating_fifteen_digit_barcodes_fails_step_5(run):
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["print"]["barcode_digits"] = 15
    assert fixed_values(doc) == ["print.barcode_digits '15', not '16'"]
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["game"]["number"] = 29  # the cut number: its barcodes would have 15 digits
    assert fixed_values(doc) == [
        "print.barcode 'GGGG BBBBBBB TTT CC: game, book, ticket and two check digits, ISO/IEC 7064 MOD 9', "
        "not 'GGG BBBBBBB TTT CC: game, book, ticket and two check digits, ISO/IEC 7064 MOD 97-10 (the "
        "15-digit number is 1 mod 97)'", "print.barcode_digits '16', not '15'"]


def test_ids_cut_to_three_digits_fail_step_3(run):
    manifest = Manifest.parse((run / "manifest.json").read_bytes())
    table = pl.read_parquet(run / "pool-p1.parquet")
    cut = table.with_columns(pl.col("ticket").str.slice(1))  # 029-BBBBBBB-TTT
    with pytest.raises(VerificationError) as caught:
        check_complete(cut, manifest.pools[0], "printed", 300, 2029)
    first = table["ticket"][0]
    assert caught.value.reason == ("3,000 ticket id(s) not as recomputed from the position, first at "
                                   f"position 0: '{first[1:]}' where '{first}' is expected")


@pytest.mark.parametrize("shown", ["cut", "padded"])
def test_barcodes_cut_to_three_digits_or_padded_to_seventeen_fail_step_9(copy, shown):
    """Cut: game 29's barcode numbers (valid check digits, the wrong number); padded: the right number
    with a leading 0 (17 digits), which reads as the same integer."""
    path = copy / "imaging-p1.parquet"
    image = pl.read_parquet(path)
    books, numbers = image["book"].to_list(), image["ticket_no"].to_list()
    if shown == "cut":
        codes = [barcode(29, b, t) for b, t in zip(books, numbers, strict=True)]
    else:
        codes = ["0" + c for c in image["barcode"].to_list()]
    assert np.all([len(c) == (15 if shown == "cut" else 17) for c in codes])
    image.with_columns(pl.Series("barcode", codes)).write_parquet(path)
    assert ("fail", "imaging-p1.parquet: 3,000 barcode number(s) not those of the pool's book and ticket at "
            "their position, first at position 0") in _step9(copy)
