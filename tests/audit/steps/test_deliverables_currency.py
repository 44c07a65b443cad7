"""A game's currency, held by verify (docs/validation.md sections 4 and 7, docs/manifest.md): an insider
who re-signs a pound game's run whose imaging file prints a prize "$2" where the card says "£2" is
refused at step 9 from the files alone (the manifest's `game.currency`), and a manifest re-signed
without its currency (a game in dollars, as far as it says) is refused at step 5 against the spec."""

from __future__ import annotations

import polars as pl
import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from tests.support import SEED_A, small_example
from tests.support.reseal import resign, signed_first_pool


@pytest.fixture
def signed(tmp_path) -> dict:
    spec = small_example(tmp_path, "uk_scrabble_0493", 1200)
    run, public, signer = signed_first_pool(load_spec(spec), SEED_A, tmp_path, run_id="gbp")
    return {"run": run, "public": public, "signer": signer, "spec": spec}


def _verify(signed: dict, with_spec: bool):
    return verify_run(VerifyRequest(run=signed["run"], public_key=signed["public"],
                                    spec=signed["spec"] if with_spec else None))


def test_the_untouched_pound_run_passes_step_9_and_5(signed):
    report = _verify(signed, with_spec=True)
    assert Step.DELIVERABLES not in report.failed and Step.FIGURES not in report.failed


@pytest.mark.parametrize("column", ["tiles_prize_0_text", "tiles_prize_0_caption"])
def test_a_resigned_imaging_file_showing_dollars_on_a_pound_game_fails_step_9(signed, column):
    run = signed["run"]
    path = run / "imaging-p1.parquet"
    table = pl.read_parquet(path)
    shown = pl.col(column)
    table.with_columns(pl.when(pl.col("tiles_prize_0") == "2").then(pl.lit("$2")).otherwise(shown)
                       .alias(column)).write_parquet(path)
    resign(run, lambda doc: None, signed["signer"])
    report = _verify(signed, with_spec=False)
    assert report.failed == [Step.DELIVERABLES]
    row = ("2", "$2", "TWO") if column.endswith("_text") else ("2", "£2", "$2")
    assert report.step(Step.DELIVERABLES).reasons[0] == (
        f"imaging-p1.parquet: column tiles_prize_0: {row} shows an amount in another currency's sign than "
        "the game's '£'")


def test_a_manifest_resigned_without_its_currency_fails_step_5_against_the_spec(signed):
    resign(signed["run"], lambda doc: doc["game"].pop("currency"), signed["signer"])
    report = _verify(signed, with_spec=True)
    assert Step.FIGURES in report.failed
    assert "game.currency: manifest None, spec 'GBP'" in report.step(Step.FIGURES).reasons[0]


def test_a_manifest_naming_usd_or_an_unknown_code_is_unreadable(signed):
    for code in ("USD", "JPY"):
        resign(signed["run"], lambda doc, code=code: doc["game"].__setitem__("currency", code),
               signed["signer"])
        result = _verify(signed, with_spec=False)
        assert result.failed, code
        text = " ".join(r for s in result.failed for r in result.step(s).reasons)
        assert f"game.currency: '{code}' is not one of CAD, GBP, EUR, AUD, NZD (USD: left out)" in text
