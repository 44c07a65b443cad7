"""Step 7 of audit alone (no generator: `python -m audit verify --seed-file`) re-derives every validation
number from the seed (audit/steps/numbers.py, docs/randomness.md and docs/validation.md section 2).
An insider holding the signing and validation keys who prints validation numbers of their choosing
(the barcode's middle digits: anyone holding an unsold ticket could then ask the central system
whether it wins) and rebuilds the validation files to agree passed every step of audit alone, seed,
spec and keys given; only `poolgen verify`'s regeneration caught it. A small signed Happy Holidays
run (two pools of 3,000) with both real validation keys."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.checklist import Step
from audit.read.fields import KEYED_BOOKS
from audit.steps.numbers import integers, permutation
from audit.verify import VerifyRequest, verify_run
from poolgen.deliverables.identity import barcodes, book_numbers, virn_values
from poolgen.files.read import file_entry
from poolgen.run.merkle import root as merkle_root
from tests.support import SEED_A
from tests.support.reseal import audit_alone, rebuild_validation, resign, signed_small_run, with_seed_file


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict:
    return with_seed_file(signed_small_run(tmp_path_factory.mktemp("virns"), 6000, validation_keys=True))


@pytest.mark.parametrize("slots", [1, 2, 20, 6000])
def test_audits_book_permutation_is_poolgens(slots):
    assert np.array_equal(permutation(SEED_A, ("poolgen/v1", "happy_holidays", "order", "books"), slots),
                          book_numbers(SEED_A, "happy_holidays", slots).astype(np.int64))


@pytest.mark.parametrize("digits", [9, 12, 18])
def test_audits_validation_numbers_are_poolgens(digits):
    """The same words, rejections and values as poolgen's stream (docs/randomness.md, section 3)."""
    made = virn_values(SEED_A, "happy_holidays", "p2", 4000, digits)
    assert np.array_equal(integers(SEED_A, ("poolgen/v1", "happy_holidays", "p2", "virn"), 10**digits, 4000),
                          made.astype(np.uint64))


def test_audit_alone_rederives_every_validation_number_of_an_honest_run(signed):
    report = audit_alone(signed, signed["run"])
    assert report.failed == [], report.to_json()
    assert report.step(Step.REPRODUCTION).details[0] == (
        "seed matches the commitment; the salts and tier order of 2 pool(s), 6,000 validation numbers and 20 "
        "book numbers re-derived from the seed")



def test_audit_alone_without_the_spec_says_it_did_not_rederive_book_numbers(signed):
    """Without --spec the order's book slots are unknown: step 7 says so in its line, never passes its
    book numbers silently (it said only the validation numbers before)."""
    report = verify_run(VerifyRequest(run=signed["run"], public_key=signed["public"],
                                      seed_file=signed["seed"], validation_key=signed["root"] / "low.key",
                                      high_validation_key=signed["root"] / "high.key"))
    assert report.failed == [], report.to_json()
    assert report.step(Step.REPRODUCTION).details[0] == (
        "seed matches the commitment; the salts and tier order of 2 pool(s) and 6,000 validation numbers "
        "re-derived from the seed; book numbers not re-derived: give --spec (the order's book slots are the "
        "spec's)")

def test_validation_numbers_chosen_by_an_insider_fail_step_7_ofaudit_alone(signed, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(signed["run"], run)
    for pool in ("p1", "p2"):
        path = run / f"imaging-{pool}.parquet"
        table = pl.read_parquet(path)
        table.with_columns(pl.col("barcode").str.slice(3, 12).alias("virn")).write_parquet(path)
    rebuild_validation(run, signed["root"])
    resign(run, lambda doc: None, signed["signer"])
    report = audit_alone(signed, run)
    assert report.failed == [Step.REPRODUCTION], report.to_json()
    assert report.step(Step.REPRODUCTION).reasons == [
        "seed matches the commitment; imaging-p1.parquet: 3,000 validation number(s) not the seed's, first "
        "at position 0; imaging-p2.parquet: 3,000 validation number(s) not the seed's, first at position 0 "
        "(docs/validation.md, section 2: each from the pool's virn stream)"]


def test_an_imaging_file_a_row_short_fails_step_7_naming_the_count_not_every_number(signed, tmp_path):
    """An imaging file without its last row: its 2,999 validation numbers are the seed's, and step 7 says
    the count (it said `3,000 validation number(s) not the seed's, first at position 0`)."""
    run = tmp_path / "run"
    shutil.copytree(signed["run"], run)
    path = run / "imaging-p1.parquet"
    pl.read_parquet(path).head(2999).write_parquet(path)
    resign(run, lambda doc: None, signed["signer"])
    report = audit_alone(signed, run)
    assert report.step(Step.REPRODUCTION).reasons == [
        "seed matches the commitment; imaging-p1.parquet: 2,999 validation numbers for the pool's 3,000 "
        "tickets (docs/validation.md, section 2: each from the pool's virn stream)"]
    assert "imaging-p1.parquet: 2,999 rows for 3,000 tickets" in report.step(Step.DELIVERABLES).reasons[0]


def _swap_first_books(signed, run: Path, claim_book_key: bool = False) -> None:
    """The first books of p1 and p2 trade numbers (ticket ids, barcodes, Merkle roots and validation
    files restated): the same set of book numbers, so the pack list is unchanged and step 3 holds. With
    `claim_book_key`, the manifest also says the books are numbered under a book key no one holds."""
    shutil.copytree(signed["run"], run)

    def edit(doc: dict) -> None:
        if claim_book_key:
            doc["print"] |= {"book_key_check": "0123456789abcdef", "book_slots": 20,
                             "book_numbers": KEYED_BOOKS}
            doc["drbg"]["streams"].remove("poolgen/v1/happy_holidays/order/books")
        firsts = [int(pl.read_parquet(run / p["file"]["name"])["book"][0]) for p in doc["pools"]]
        swap = {firsts[0]: firsts[1], firsts[1]: firsts[0]}
        for p in doc["pools"]:
            table = pl.read_parquet(run / p["file"]["name"])
            book = table["book"].replace(swap)
            table = table.with_columns(book, pl.format("465-{}-{}", book.cast(pl.String).str.zfill(7),
                                                       pl.col("ticket_no").cast(pl.String).str.zfill(3))
                                       .alias("ticket"))
            table.write_parquet(run / p["file"]["name"], compression="zstd", statistics=True)
            p["file"], p["merkle"]["root"] = file_entry(run / p["file"]["name"]), merkle_root(table).hex()
            image = run / f"imaging-{p['id']}.parquet"
            shown = pl.read_parquet(image).with_columns(book)
            codes = barcodes(465, shown["book"].to_numpy(), shown["ticket_no"].to_numpy())
            shown.with_columns(pl.Series("barcode", codes.astype(str))).write_parquet(image)

    resign(run, edit, signed["signer"])
    rebuild_validation(run, signed["root"])
    resign(run, lambda doc: None, signed["signer"])


def test_book_numbers_swapped_by_an_insider_fail_step_7_ofaudit_alone(signed, tmp_path):
    run = tmp_path / "run"
    _swap_first_books(signed, run)
    without = verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"],
                                       validation_key=signed["root"] / "low.key",
                                       high_validation_key=signed["root"] / "high.key"))
    assert without.failed == [], without.to_json()
    report = audit_alone(signed, run)
    assert report.failed == [Step.REPRODUCTION], report.to_json()
    assert report.step(Step.REPRODUCTION).reasons == [
        "seed matches the commitment; pool-p1.parquet: book number(s) not the seed's, first at position 0; "
        "pool-p2.parquet: book number(s) not the seed's, first at position 0 (docs/validation.md, section 2: "
        "the order's books stream)"]


def test_books_swapped_under_a_book_key_an_insider_claims_fail_step_7_ofaudit_alone(signed, tmp_path):
    """The same swap with `print.book_key_check` added (and `book_slots`, the keyed `book_numbers` text,
    the books stream dropped): step 7 skipped its book numbers for such a manifest and the run passed
    every step of audit alone, seed and spec given. A book key's numbers are checked only against the
    key, so without it step 7 says why it cannot pass rather than passing."""
    run = tmp_path / "run"
    _swap_first_books(signed, run, claim_book_key=True)
    report = audit_alone(signed, run)
    assert report.failed == [Step.REPRODUCTION], report.to_json()
    assert report.step(Step.REPRODUCTION).reasons == [
        "seed matches the commitment; 6,000 validation numbers re-derived from the seed; book numbers not "
        "re-derived: the manifest says they are under a book key (check value 0123456789abcdef), which the "
        "seed does not give: give --book-key (docs/validation.md, section 2)"]
    assert report.step(Step.COMPLETENESS).status == "pass"  # a bijection onto the 20 slots, as stated
