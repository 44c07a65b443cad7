"""Step 9 (audit/steps/deliverables.py): the print-run deliverables of a real signed run against
its pool, with both validation keys, and every tampering of them caught (docs/validation.md). The honest
run (a full pool of Wild Side) is the root conftest's `runs`; the tamper cases work on copies of a run of
Happy Holidays cut to one pool of 3,000 tickets with both keys (`small`): what step 9 refuses, and the
reason it gives, do not depend on the pool's size."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from audit.checklist import Step
from audit.read.manifest import Manifest
from audit.steps.deliverables import check_deliverables
from audit.verify import VerifyRequest, verify_run
from poolgen.deliverables.validation import ValidationFile, derive
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import PRINTED, SEED_A, small_happy_holidays


def test_verify_passes_step_9_with_both_keys(runs):
    folder = runs["runs"]["wild_side"]
    vk = runs["root"] / "vk"
    report = verify_run(VerifyRequest(
        run=folder,
        public_key=runs["public"],
        spec=PRINTED["wild_side"],
        validation_key=vk / "low.key",
        high_validation_key=vk / "high.key",
    ))
    assert report.ok, report.to_json()
    assert report.step(Step.DELIVERABLES).details == [
        "imaging-p5.parquet: 150,000 rows match pool p5 spot for spot (56 spots, barcodes recomputed)",
        "packs.csv: 2,500 books, sorted, each with its ticket range; no outcome, no pool",
        "validation-low.bin: every one of 150,000 tickets validates to exactly its prize (prizes below the "
        "threshold only, high-tier winners marked as such without their amount)",
        "validation-high.bin: every one of 150,000 tickets validates to exactly its prize (high-tier prizes "
        "only, low-tier winners marked as such)",
    ]
    skipped = verify_run(VerifyRequest(run=folder, public_key=runs["public"]))
    assert skipped.ok and skipped.step(Step.DELIVERABLES).status == "skip"
    assert skipped.step(Step.DELIVERABLES).reasons == [
        "validation-low.bin: header, size and sort order checked; records not opened (give "
        "--validation-key)",
        "validation-high.bin: header, size and sort order checked; records not opened (give "
        "--high-validation-key)",
    ]


def _step9(folder: Path, keys) -> list[tuple[str, str]]:
    manifest = Manifest.parse((folder / "manifest.json").read_bytes())
    return [
        r
        for r in check_deliverables(folder, manifest, {"low": keys[0], "high": keys[1]}, None)
        if r[0] != "pass"
    ]


@pytest.fixture(scope="module")
def small(runs, tmp_path_factory) -> Path:
    """Happy Holidays cut to one pool of 3,000 tickets (p1), signed and with both validation files, made
    with the keys of `runs`."""
    root = tmp_path_factory.mktemp("small")
    signer = runs["signer"]
    return generate(GenerateRequest(load_spec(small_happy_holidays(root, 3000)), SEED_A, now=datetime(
        2026, 12, 1, tzinfo=UTC), out=root / "runs", run_id="r", signature=signer.manifest_entry(),
        validation_keys=runs["keys"]), finish=signer.sign_run).folder


@pytest.fixture
def copy(small, tmp_path) -> Path:
    dst = tmp_path / "run"
    shutil.copytree(small, dst)
    return dst


def _edit_records(path: Path, edit) -> None:
    data = path.read_bytes()
    end = data.find(b"\n") + 1
    path.write_bytes(data[:end] + edit(bytearray(data[end:])))


def _barcode_of_record(run: Path, tier: str, key: bytes, row: int) -> str:
    """The barcode number of the ticket whose record is the file's `row` (by poolgen's lookup key D)."""
    d = ValidationFile.read(run / f"validation-{tier}.bin").keys[row]
    image = pl.read_parquet(run / "imaging-p1.parquet", columns=["barcode", "virn"])
    return next(b for b, v in image.iter_rows() if derive(key, "r", b, v)[:16] == d)


def test_a_changed_record_fails_step_9_naming_its_ticket(runs, copy):
    def flip(body: bytearray) -> bytes:
        body[32 * 1000 + 20] ^= 1
        return bytes(body)

    code = _barcode_of_record(copy, "low", runs["keys"][0], 1000)
    _edit_records(copy / "validation-low.bin", flip)
    assert _step9(copy, runs["keys"]) == [
        (
            "fail",
            "validation-low.bin: 1 ticket(s) without their record (missing or changed records), first the "
            f"ticket of barcode {code}",
        )
    ]


def test_a_missing_record_fails_step_9_naming_its_ticket(runs, copy):
    code = _barcode_of_record(copy, "high", runs["keys"][1], 0)
    _edit_records(copy / "validation-high.bin", lambda body: bytes(body[32:]))
    assert _step9(copy, runs["keys"]) == [
        (
            "fail",
            "validation-high.bin: 3000 records in 143,968 bytes for 3,000 tickets (threshold "
            "60000); 1 ticket(s) without their record (missing or changed records), first the ticket of "
            f"barcode {code}; the known-ticket values are not every ticket's",
        )
    ]


def _swap_rows(width: int, i: int, j: int, known: bool = False):
    """An edit of the body swapping its rows i and j: records (32 bytes), or known values (`width` bytes,
    after the 3,000 records) when `known`."""
    def edit(body: bytearray) -> bytes:
        start = 32 * 3000 if known else 0
        a, b = start + width * i, start + width * j
        body[a:a + width], body[b:b + width] = body[b:b + width], body[a:a + width]
        return bytes(body)
    return edit


def _copy_row(body: bytearray) -> bytes:
    body[32 * 6:32 * 7] = body[32 * 5:32 * 6]  # record 6 twice, record 7's ticket without one
    return bytes(body)


@pytest.mark.parametrize(("edit", "problem"), [
    (_swap_rows(32, 0, 1), "records not sorted by their bytes with none twice (section 3), first at record 1 "
     "of 3,000"),
    (_swap_rows(16, 2999, 2998, known=True), "known values not sorted by their bytes with none twice "
     "(section 3), first at known value 2,999 of 3,000"),
    (_copy_row, "records not sorted by their bytes with none twice (section 3), first at record 6 of 3,000"),
], ids=["records reordered", "known values reordered", "a record twice"])
def test_validation_records_out_of_order_or_twice_fail_step_9_with_or_without_the_key(runs, copy, edit,
                                                                                        problem):
    """Section 3 sorts the records and the known values by their bytes (the sort order is not print
    order); a file that is not so sorted, or holds a record twice, passed step 9 without the key, and
    with it failed as `0 ticket(s) without their record` (a reorder) or a `known-ticket values` line."""
    code = _barcode_of_record(copy, "low", runs["keys"][0], 6) if edit is _copy_row else ""
    _edit_records(copy / "validation-low.bin", edit)
    manifest = Manifest.parse((copy / "manifest.json").read_bytes())
    without = [r for r in check_deliverables(copy, manifest, {"low": None, "high": None}, None)
               if r[0] == "fail"]
    assert without == [("fail", f"validation-low.bin: {problem}")]
    twice = (f"; 1 ticket(s) without their record (missing or changed records), first the ticket of barcode "
             f"{code}" if edit is _copy_row else "")
    assert _step9(copy, runs["keys"]) == [("fail", f"validation-low.bin: {problem}{twice}")]


def test_a_swapped_imaging_row_fails_step_9(runs, copy):
    path = copy / "imaging-p1.parquet"
    table = pl.read_parquet(path)
    order = np.arange(table.height)
    order[[10, 11]] = [11, 10]
    table[order.tolist()].write_parquet(path)
    found = _step9(copy, runs["keys"])
    assert found[0] == (
        "fail",
        "imaging-p1.parquet: 2 barcode number(s) not those of the pool's book and "
        "ticket at their position, first at position 10; 2 ticket_no value(s) differ "
        "from the pool's, first at position 10; column play_spot_0: a stored code is not "
        "shown as one symbol (or two as one): code 0 is shown as ('2', '$2.00', 'TWO$') at position 10 and "
        "as ('FREE', 'FREE', 'TICKET') at position 2,997",
    )


def test_the_wrong_key_fails_step_9(runs, copy):
    low, high = runs["keys"]
    assert [why for _, why in _step9(copy, (high, low))] == [
        f"validation-low.bin: the given low-tier key is not the file's key (key check "
        f"{ValidationFile.read(copy / 'validation-low.bin').head['key_check']})",
        f"validation-high.bin: the given high-tier key is not the file's key (key check "
        f"{ValidationFile.read(copy / 'validation-high.bin').head['key_check']})",
    ]


def test_an_unlisted_file_still_fails_step_2(runs, copy):
    (copy / "validation-extra.bin").write_bytes(b"x")
    report = verify_run(VerifyRequest(run=copy, public_key=runs["public"]))
    assert report.step(Step.FILES).status == "fail"
    assert report.step(Step.FILES).reasons == ["unlisted file(s) in the run folder: validation-extra.bin"]
