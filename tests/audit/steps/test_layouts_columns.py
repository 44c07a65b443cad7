"""Step 4 refuses a pool file holding a column that no style's contract gives the pool
(docs/pool-files.md): the engines record the layout columns they read (audit/styles/interface.py
`READ`), and any other beside the common ones is named. An insider re-signing an eInstant pool with an
extra column passed every step, even with the spec (an eInstant has no imaging file to disagree);
tests/support/reseal.py `reseal_pool` restates its hash and Merkle root."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_einstant, small_happy_holidays
from tests.support.reseal import reseal_pool


@pytest.mark.parametrize("game", ["primetime_payout", "happy_holidays"])
def test_a_resigned_pool_file_with_a_column_no_contract_gives_fails_step_4(tmp_path, game):
    files = new_key_pair(tmp_path / "keys", None)
    signer = Signer.from_file(files.private)
    spec = (small_einstant(tmp_path, game, 10000) if game == "primetime_payout"
            else small_happy_holidays(tmp_path, 3000))
    loaded = load_spec(spec)
    pool = loaded.pools[0].id
    now = datetime(2026, 12, 1, tzinfo=UTC)
    run = generate(GenerateRequest(loaded, SEED_A, now=now, out=tmp_path / "r", run_id="r", pool_ids=[pool],
                                   signature=signer.manifest_entry()),
                   finish=signer.sign_run).folder
    name = f"pool-{pool}.parquet"
    table = pl.read_parquet(run / name)
    marked = table.with_columns((pl.col("prize_cents") > 1000).cast(pl.UInt8).alias("note"))
    reseal_pool(run, name, marked, signer)
    report = verify_run(VerifyRequest(run=run, public_key=files.public, spec=spec))
    assert report.step(Step.SIGNATURE).status == "pass"
    assert report.step(Step.LAYOUTS).reasons == [
        f"pool {pool}: column(s) note no style's contract gives this pool (docs/pool-files.md): no engine "
        "reads them"]
