"""Step 9 refusing a re-signed imaging file that breaks one rule docs/validation.md section 4 states
(section 7: what step 9 checks), with and without the spec: its columns not the pool's layout columns
each followed by its text and caption, a VIRN not `virn_digits` digits, and a code, text or caption
that is null (a symbol the spec gives no caption shows "", never a null) or not text. A small signed
Happy Holidays run (and a Wild Side one, whose texts are digits); the imaging file written again
changed, its size and hash restated and the manifest signed again with the run's key
(tests/support/reseal.py `resign`), as an insider could."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from tests.support import small_wild_side
from tests.support.layout_tamper import signed_run
from tests.support.reseal import resign, signed_small_run

NAME = "imaging-p1.parquet"
BLOCKED = "pack list and validation files: need every pool's imaging file to match (above)"


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> dict:
    return signed_small_run(tmp_path_factory.mktemp("imaging-rules"), 3000)


def _null(column: str) -> Callable[[pl.DataFrame], pl.DataFrame]:
    return lambda im: im.with_columns(pl.when(pl.int_range(pl.len()) >= 7).then(None)
                                      .otherwise(pl.col(column)).alias(column))


CASES = {
    "text before code": (
        lambda im: im.select([*im.columns[:4], im.columns[5], im.columns[4], *im.columns[6:]]),
        "imaging-p1.parquet: columns ['barcode', 'virn', 'book', 'ticket_no', 'play_spot_0_text', "
        "'play_spot_0']... are not the pool's layout columns with text and caption"),
    "a VIRN one digit short": (
        lambda im: im.with_columns(pl.when(pl.int_range(pl.len()) == 5).then(pl.col("virn").str.slice(1))
                                   .otherwise(pl.col("virn")).alias("virn")),
        "imaging-p1.parquet: a validation number is not 12 digits"),
    "captions null": (
        _null("play_spot_2_caption"),
        "imaging-p1.parquet: column play_spot_2: play_spot_2_caption is null in 2,993 row(s), first at "
        "position 7 (docs/validation.md section 4: never a null)"),
    "texts null": (
        _null("play_spot_0_text"),
        "imaging-p1.parquet: column play_spot_0: play_spot_0_text is null in 2,993 row(s), first at "
        "position 7 (docs/validation.md section 4: never a null)"),
}


@pytest.mark.parametrize("with_spec", [False, True])
@pytest.mark.parametrize("case", list(CASES))
def test_a_resigned_imaging_file_breaking_a_section_4_rule_fails_step_9(signed, tmp_path: Path, case,
                                                                         with_spec):
    change, reason = CASES[case]
    run = tmp_path / "run"
    shutil.copytree(signed["run"], run)
    change(pl.read_parquet(run / NAME)).write_parquet(run / NAME)
    resign(run, lambda doc: None, signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"],
                                      spec=signed["spec"] if with_spec else None))
    assert report.failed == [Step.DELIVERABLES], report.to_json()
    assert report.step(Step.DELIVERABLES).reasons == [reason, BLOCKED]


def test_the_untouched_run_passes_step_9(signed):
    report = verify_run(VerifyRequest(run=signed["run"], public_key=signed["public"], spec=signed["spec"]))
    assert report.failed == [], report.to_json()


@pytest.mark.parametrize("with_spec", [False, True])
def test_a_resigned_imaging_file_writing_a_spots_texts_as_integers_fails_step_9(tmp_path, with_spec):
    """Section 4: code, text and caption are strings. Wild Side's number texts are digits ('30'): written
    as an integer column, each code still shows one (code, text, caption), so without the spec nothing
    else would tell; a press reading the column as text would print '3' for '03'."""
    spec_file = small_wild_side(tmp_path)
    spec = load_spec(spec_file)
    made = signed_run(tmp_path, spec, spec.pools[0])
    run = made["run"]
    imaging = pl.read_parquet(run / NAME)
    imaging.with_columns(pl.col("numbers_win_0_text").cast(pl.Int64)).write_parquet(run / NAME)
    resign(run, lambda doc: None, made["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=made["keys"].public,
                                      spec=spec_file if with_spec else None))
    assert report.failed == [Step.DELIVERABLES], report.to_json()
    assert report.step(Step.DELIVERABLES).reasons == [
        "imaging-p1.parquet: column numbers_win_0: numbers_win_0_text is of type Int64, not text", BLOCKED]
