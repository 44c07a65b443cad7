"""With --spec, step 9 holds each imaging spot to the symbols of the spec's groups that spot's lists name
(audit/styles/spots.py `spot_lists`, audit/read/specs/model.py `list_symbols`), not to any symbol of the
spec: Hit $50's numbers and prizes share codes (`10` is the number 10, TEN, and the prize $10.00,
TEN$), so an insider who re-signs an imaging file printing every $10.00 prize spot as the number 10
(each code still shown as one symbol of the spec, the code the play entry gives) passed every step
before the seed is out. A small signed Hit $50 run, one pool of 3,000 tickets."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import polars as pl

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_example
from tests.support.reseal import resign


def test_a_resigned_imaging_file_printing_a_prize_as_the_number_of_its_code_fails_step_9(tmp_path):
    spec = small_example(tmp_path, "hit_50", 3000)  # counts per pool, a sixth of the order's
    text = spec.read_text().replace('counts_per = "order"', 'counts_per = "pool"')
    spec.write_text(re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // 6)}", text,
                           flags=re.M))
    files = new_key_pair(tmp_path / "keys", None)
    signer = Signer.from_file(files.private)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC),
                                   out=tmp_path / "runs", run_id="h", signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    path = run / "imaging-p1.parquet"
    table = pl.read_parquet(path)
    prizes = [c for c in table.columns if re.fullmatch(r"play_prize_\d+", c)]
    assert table.select((pl.col(c) == "10").sum() for c in prizes).sum_horizontal().item() > 0
    table.with_columns(
        pl.when(pl.col(c) == "10").then(pl.lit(shown)).otherwise(pl.col(c + suffix)).alias(c + suffix)
        for c in prizes for suffix, shown in (("_text", "10"), ("_caption", "TEN"))).write_parquet(path)
    resign(run, lambda doc: None, signer)
    assert verify_run(VerifyRequest(run=run, public_key=files.public)).failed == []  # no spec: no symbols
    report = verify_run(VerifyRequest(run=run, public_key=files.public, spec=spec))
    assert report.failed == [Step.DELIVERABLES], report.to_json()
    assert report.step(Step.DELIVERABLES).reasons == [
        "imaging-p1.parquet: "
        + "; ".join(f"column play_prize_{k}: ('10', '10', 'TEN') is not one of the spec's symbols of area "
                    "play's prizes" for k in range(3)),
        "pack list and validation files: need every pool's imaging file to match (above)"]
