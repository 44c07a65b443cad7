"""Re-signed runs whose deliverables list or validation files were changed by an insider holding the
signing key (tests/support/reseal.py `resign`): step 2 refuses a list whose roles, pools or tiers are
not the contract's (docs/validation.md, section 1), so that no file escapes step 9 under another role,
and step 9 refuses a key check value or validation header that is not the run's (section 3). A small
signed Happy Holidays run with both real validation keys; each case works on a copy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
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
    (lambda doc: doc["deliverables"].append(dict(_entry(doc, "packs.csv"))),
     "a file is listed twice; 2 packs files listed for the run"),
    (lambda doc: _entry(doc, "validation-low.bin").update(key_check="ABCDEF0123456789"),  # upper case
     "validation-low.bin (validation): key_check 'ABCDEF0123456789' is not 16 hex digits"),
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


def _top_prizes(run: Path) -> str:
    """Pool p1's tickets of $20 and more as barcode:VIRN, what a central system must not be told."""
    pool = pl.read_parquet(run / "pool-p1.parquet").select("prize_cents")
    shown = pl.read_parquet(run / "imaging-p1.parquet").select("barcode", "virn")
    top = pl.concat([pool, shown], how="horizontal").filter(pl.col("prize_cents") >= 2000)
    return ",".join(f"{b}:{v}" for b, v in top.select("barcode", "virn").iter_rows())


@pytest.mark.parametrize("with_keys", [True, False])
def test_a_resigned_validation_header_carrying_the_top_prizes_fails_step_9(signed, run, with_keys):
    """The header is not under the key: a field besides section 3's (here every $20+ ticket's barcode and
    VIRN, which would let the central system name winners no player has presented) is refused, with
    or without the keys; so is a header written with spaces, which could encode as much."""
    path = run / "validation-low.bin"
    data = path.read_bytes()
    end = data.index(b"\n")
    head = json.loads(data[:end]) | {"note": _top_prizes(run)}
    path.write_bytes(json.dumps(head, sort_keys=True, separators=(",", ":")).encode() + data[end:])
    spaced = run / "validation-high.bin"
    data = spaced.read_bytes()
    end = data.index(b"\n")
    spaced.write_bytes(json.dumps(json.loads(data[:end]), sort_keys=True).encode() + data[end:])
    resign(run, lambda doc: None, signed["signer"])
    report = _verify(signed, run) if with_keys else verify_run(
        VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.failed == [Step.DELIVERABLES], report.to_json()
    assert report.step(Step.DELIVERABLES).reasons == [
        "validation-low.bin: header field(s) ['note'] section 3 does not give (the file goes to the central "
        "system: a field could carry outcomes)",
        "validation-high.bin: header not in canonical form (keys sorted, no spaces)"]


def test_a_resigned_validation_header_naming_another_key_fails_step_9_without_the_key(signed, run):
    path = run / "validation-low.bin"
    data = path.read_bytes()
    end = data.index(b"\n")
    head = json.loads(data[:end])
    path.write_bytes(data.replace(head["key_check"].encode(), b"0" * 16, 1))
    resign(run, lambda doc: None, signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"]))
    assert report.failed == [Step.DELIVERABLES], report.to_json()
    assert report.step(Step.DELIVERABLES).reasons[0] == (
        f"validation-low.bin: header key_check '0000000000000000', the manifest's {head['key_check']!r}")


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


@pytest.mark.parametrize("with_keys", [True, False])
@pytest.mark.parametrize("field", ["game", "records", "record_bytes", "known_bytes", "high_tier_cents"])
def test_a_resigned_validation_header_writing_an_integer_as_a_float_fails_step_9(signed, run, field,
                                                                                 with_keys):
    """Section 3: the header's counts and amounts are JSON integers. `"game":465.0` reads as 465 to a
    Python desk (465.0 == 465) and passed the header's comparisons; a strict reader refuses it."""
    path = run / "validation-low.bin"
    data = path.read_bytes()
    end = data.index(b"\n")
    head = json.loads(data[:end])
    head[field] = float(head[field])
    path.write_bytes(json.dumps(head, sort_keys=True, separators=(",", ":")).encode() + data[end:])
    resign(run, lambda doc: None, signed["signer"])
    report = _verify(signed, run) if with_keys else verify_run(
        VerifyRequest(run=run, public_key=signed["public"], spec=signed["spec"]))
    assert report.failed == [Step.DELIVERABLES], report.to_json()
    assert report.step(Step.DELIVERABLES).reasons[0] == (
        f"validation-low.bin: header field(s) ['{field}'] not JSON integers (section 3)")


def test_a_resigned_validation_file_without_its_header_line_fails_step_9(signed, run):
    """Section 3: a header line, then the records. A file of records alone (its header cut off) is
    refused by name, with or without the keys."""
    path = run / "validation-low.bin"
    data = path.read_bytes()
    path.write_bytes(data[data.index(b"\n") + 1:].replace(b"\n", b"\x00"))
    resign(run, lambda doc: None, signed["signer"])
    for report in (_verify(signed, run), verify_run(VerifyRequest(run=run, public_key=signed["public"]))):
        assert report.failed == [Step.DELIVERABLES], report.to_json()
        assert report.step(Step.DELIVERABLES).reasons[0] == "validation-low.bin: no header line"
