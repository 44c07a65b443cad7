"""Re-signed runs whose deliverables list or validation files were changed by an insider holding the
signing key (tests/support/reseal.py `resign`): step 2 refuses a list whose roles, pools or tiers are
not the contract's (docs/validation.md, section 1), so that no file escapes step 9 under another role,
and step 9 refuses a key check value or validation header that is not the run's (section 3). A small
signed Happy Holidays run with both real validation keys; each case works on a copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from audit.checklist import Step
from audit.steps.validation import key_check
from audit.verify import VerifyRequest, verify_run
from poolgen.deliverables.validation import read_validation_key
from tests.support.reseal import resign, signed_small_run


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict:
    return signed_small_run(tmp_path_factory.mktemp("listing"), 6000, validation_keys=True)


@pytest.fixture
def run(signed, tmp_path) -> Path:
    dst = tmp_path / "run"
    shutil.copytree(signed["run"], dst)
    return dst


def _verify(signed, run: Path):
    return verify_run(VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"],
                                    validation_key=signed["root"] / "low.key",
                                    high_validation_key=signed["root"] / "high.key"))


def _entry(doc: dict, name: str) -> dict:
    return next(f for f in doc["deliverables"] if f["name"] == name)


def test_the_untouched_small_run_passes_steps_2_and_9(signed, run):
    report = _verify(signed, run)
    assert report.step(Step.FILES).status == "pass", report.to_json()
    assert report.step(Step.DELIVERABLES).status == "pass", report.to_json()


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda doc: _entry(doc, "validation-low.bin").update(role="validation-low"),
     "validation-low.bin: role 'validation-low' is not one of a printed run's (pool, imaging, packs, "
     "validation, validation-high); one validation file listed without the other tier's"),
    (lambda doc: _entry(doc, "packs.csv").update(role="pack-list"),
     "packs.csv: role 'pack-list' is not one of a printed run's (pool, imaging, packs, validation, "
     "validation-high); no pack list (role packs) listed"),
    (lambda doc: _entry(doc, "validation-high.bin").update(tier="low"),
     "validation-high.bin (validation-high): tier 'low', not 'high'"),
    (lambda doc: _entry(doc, "pool-p1.parquet").update(name="pool-p9.parquet"),
     "pool-p9.parquet (pool): pool p1's file is pool-p1.parquet"),
    (lambda doc: _entry(doc, "pool-p2.parquet").update(pool="p9"),
     "pool-p2.parquet (pool): pool 'p9' is not a pool of the manifest; pool p2: its pool file is not listed"),
    (lambda doc: _entry(doc, "imaging-p2.parquet").update(pool="p1"),
     "2 imaging files listed for pool p1"),
])
def test_a_resigned_deliverables_list_that_hides_a_file_from_step_9_fails_step_2(signed, run, edit, reason):
    resign(run, edit, signed["signer"])
    report = _verify(signed, run)
    assert report.step(Step.SIGNATURE).status == "pass"
    assert report.step(Step.FILES).status == "fail"
    assert reason in report.step(Step.FILES).reasons


def test_a_resigned_key_check_value_not_the_keys_fails_step_9(signed, run):
    resign(run, lambda doc: _entry(doc, "validation-low.bin").update(key_check="0" * 16), signed["signer"])
    report = _verify(signed, run)
    assert report.step(Step.FILES).status == "pass"
    low = read_validation_key(signed["root"] / "low.key")
    assert report.step(Step.DELIVERABLES).reasons == [
        f"validation-low.bin: the manifest's key_check '0000000000000000' is not the low-tier key's "
        f"{key_check(low)}"]


def test_a_resigned_validation_header_of_another_run_or_tier_fails_step_9(signed, run):
    path = run / "validation-high.bin"
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"run_id":"hh"', b'"run_id":"hx"', 1).replace(b'"tier":"high"',
                                                                                b'"tier":"lows"', 1))
    resign(run, lambda doc: None, signed["signer"])
    report = _verify(signed, run)
    assert report.step(Step.FILES).status == "pass"
    assert report.step(Step.DELIVERABLES).reasons == [
        "validation-high.bin: header tier 'lows', not 'high'; header run_id 'hx', not 'hh'"]


def test_a_resigned_pack_list_quoting_one_book_number_fails_step_9(signed, run):
    """packs.csv is public: a quoted book number (which a CSV reader reads as the same number) could
    mark the books holding the top prizes, so step 9 holds the list to its exact bytes."""
    path = run / "packs.csv"
    lines = path.read_text().splitlines(keepends=True)
    game, book, rest = lines[5].split(",", 2)
    lines[5] = f'{game},"{book}",{rest}'
    path.write_text("".join(lines))
    resign(run, lambda doc: None, signed["signer"])
    report = _verify(signed, run)
    assert report.step(Step.FILES).status == "pass"
    assert report.step(Step.DELIVERABLES).reasons == [
        "packs.csv: line 6 is not written as docs/validation.md section 4 gives it (plain digits, commas, "
        "LF line ends): a public file may carry nothing but the books"]
