"""Step 9 holds every imaging file's spot codes to the pool's stored values through the manifest's
play entry (audit/styles/spots.py, docs/validation.md section 4): an insider who re-signs a run whose
imaging file prints every $1 spot of pool p1 as $100 and every $100 as $1 (each code still shown as
one symbol of the spec, so the press prints three $100 on tickets that pay $1) is refused before
sale, from the files alone; before, only step 7 (the seed, published after close) caught it."""

from __future__ import annotations

import polars as pl
import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from tests.support.reseal import resign, signed_small_run


@pytest.fixture
def signed(tmp_path) -> dict:
    return signed_small_run(tmp_path)


def _swap_shown(table: pl.DataFrame, a: str, b: str) -> pl.DataFrame:
    """Every spot showing symbol `a` shows `b` instead, and the other way round (code, text, caption)."""
    spots = [c for c in table.columns if c.startswith("play_spot_") and c[len("play_spot_"):].isdigit()]
    first = table.select(spots[0], spots[0] + "_text", spots[0] + "_caption")
    shown = {r[0]: r for r in first.unique().iter_rows()}
    return table.with_columns(
        pl.when(pl.col(c) == a).then(pl.lit(shown[b][k])).when(pl.col(c) == b).then(pl.lit(shown[a][k]))
        .otherwise(pl.col(c + suffix)).alias(c + suffix)
        for c in spots for k, suffix in enumerate(("", "_text", "_caption")))


@pytest.mark.parametrize("with_spec", [False, True])
def test_a_resigned_imaging_file_printing_1_dollar_spots_as_100_fails_step_9(signed, with_spec):
    run = signed["run"]
    path = run / "imaging-p1.parquet"
    _swap_shown(pl.read_parquet(path), "1", "100").write_parquet(path)
    resign(run, lambda doc: None, signed["signer"])
    report = verify_run(VerifyRequest(run=run, public_key=signed["public"],
                                      spec=signed["spec"] if with_spec else None))
    assert report.failed == [Step.DELIVERABLES]
    reason = report.step(Step.DELIVERABLES).reasons[0]
    assert reason.startswith("imaging-p1.parquet: column play_spot_0: ")
    assert "spot(s) show another code than the pool's, first at position " in reason
    assert "is '1' in the play entry, the imaging file shows '100'" in reason
