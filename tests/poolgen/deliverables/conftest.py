"""The run the sealing tests share."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from poolgen.deliverables.validation import new_validation_key, read_validation_key
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, spec_path


@pytest.fixture(scope="session")
def run(tmp_path_factory) -> dict:
    """A Wild Side pool generated with two validation keys (low.key, high.key beside it): sealing's
    (test_seal.py) run, with each ticket's barcode, VIRN and prize."""
    root = tmp_path_factory.mktemp("desk")
    for tier in ("low", "high"):
        new_validation_key(root / f"{tier}.key")
    keys = (read_validation_key(root / "low.key"), read_validation_key(root / "high.key"))
    spec = load_spec(spec_path("wild_side"))
    folder = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=root,
                                      run_id="ws", pool_ids=["p1"], validation_keys=keys)).folder
    rows = pl.concat(
        [
            pl.read_parquet(folder / "imaging-p1.parquet", columns=["barcode", "virn"]),
            pl.read_parquet(folder / "pool-p1.parquet", columns=["prize_cents"]),
        ],
        how="horizontal",
    )
    return {"root": root, "folder": folder, "rows": rows}
