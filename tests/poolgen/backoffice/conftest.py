"""The run the back-office tests share: a small Happy Holidays order (6 pools of 3,000 tickets) whose
$20 and $100 prizes are high-tier (`high_tier_cents` 2000), signed, with both validation keys."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from poolgen.deliverables.validation import new_validation_key, read_validation_key
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, small_happy_holidays


@pytest.fixture(scope="session")
def office(tmp_path_factory) -> dict:
    """root (keys: low.key, high.key, keys/), folder (the run), index (an index folder), public (the
    public key) and rows: every ticket's barcode, virn, ticket id, tier and prize."""
    root = tmp_path_factory.mktemp("office")
    for tier in ("low", "high"):
        new_validation_key(root / f"{tier}.key")
    keys = (read_validation_key(root / "low.key"), read_validation_key(root / "high.key"))
    pair = new_key_pair(root / "keys", None)
    signer = Signer.from_file(pair.private)
    game = load_spec(small_happy_holidays(root, 18000))
    folder = generate(GenerateRequest(game, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=root / "runs",
                                      run_id="hh", validation_keys=keys, high_tier_cents=2000,
                                      signature=signer.manifest_entry()), finish=signer.sign_run).folder
    rows = pl.concat([
        pl.concat([pl.read_parquet(folder / f"imaging-p{i}.parquet", columns=["barcode", "virn"]),
                   pl.read_parquet(folder / f"pool-p{i}.parquet", columns=["ticket", "tier", "prize_cents"])],
                  how="horizontal") for i in range(1, 7)])
    (root / "index").mkdir()
    return {"root": root, "folder": folder, "rows": rows, "index": root / "index", "public": pair.public,
            "private": pair.private}


@pytest.fixture(scope="session")
def einstant(tmp_path_factory) -> dict:
    """A signed Hand to Hand Tactics run of one pool (d1.00) cut to 2,000 shares (counts / 500, at
    least 1): root and folder, public (its public key), and the pool's prizes in serial order."""
    import re  # noqa: PLC0415  # only this fixture rewrites a spec

    from tests.support import spec_path  # noqa: PLC0415  # only this fixture reads the real spec

    root = tmp_path_factory.mktemp("einstant")
    text = spec_path("hand_to_hand_tactics").read_text()
    text = text.replace("pool_shares = 1000000", "pool_shares = 2000").replace(
        "order_shares = 6000000", "order_shares = 12000")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // 500)}", text, flags=re.M)
    (root / "small.toml").write_text(text)
    game = load_spec(root / "small.toml")
    pair = new_key_pair(root / "keys", None)
    signer = Signer.from_file(pair.private)
    folder = generate(GenerateRequest(game, SEED_A, now=datetime(2026, 12, 1, tzinfo=UTC), out=root / "runs",
                                      run_id="eh", pool_ids=["d1.00"], signature=signer.manifest_entry()),
                      finish=signer.sign_run).folder
    prizes = pl.read_parquet(folder / "pool-d1.00.parquet", columns=["prize_cents"])["prize_cents"].to_list()
    return {"root": root, "folder": folder, "prizes": prizes, "public": pair.public}
