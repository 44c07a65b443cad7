"""Validation files (poolgen/deliverables/validation.py, write.py; docs/validation.md): outcome
files private whatever the umask, and tickets of a full pool of every printed game, claimed one at a
time as the validation desk claims them, validating to their prize and nothing else: every ticket of a
tier with at most RARE tickets in the pool and every STRIDE-th of the rest (one claim costs about
0.1 ms of pure Python; audit's step 9 re-derives every record of these runs in bulk,
tests/audit/steps/test_deliverables.py). The runs are the root conftest's `runs`."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from poolgen.deliverables.validation import FREE, OTHER_TIER, TIERS, ValidationError, ValidationFile
from tests.support import PRINTED

RARE = 2000  # a tier with at most this many tickets in the pool: each of its tickets claimed
STRIDE = 25  # and every STRIDE-th ticket of the other tiers


def test_outcome_files_are_0600_in_a_0700_folder_whatever_the_umask(runs):
    folder = runs["runs"]["wild_side"]
    modes = {p.name: p.stat().st_mode & 0o777 for p in folder.iterdir()}
    assert folder.stat().st_mode & 0o777 == 0o700
    secret = {n: m for n, m in modes.items() if n.endswith((".parquet", ".bin"))}
    assert set(secret) == {"pool-p5.parquet", "imaging-p5.parquet", *TIERS.values()}
    assert set(secret.values()) == {0o600}
    roles = {
        f["name"]: f["role"] for f in json.loads((folder / "manifest.json").read_bytes())["deliverables"]
    }
    assert roles == {
        "pool-p5.parquet": "pool",
        "imaging-p5.parquet": "imaging",
        "packs.csv": "packs",
        "validation-low.bin": "validation",
        "validation-high.bin": "validation-high",
    }


def _tickets(folder: Path) -> pl.DataFrame:
    """The claimed tickets: every one of a rare tier, every STRIDE-th of the others, in print order."""
    im = next(folder.glob("imaging-*.parquet"))
    pool = next(folder.glob("pool-*.parquet"))
    rows = pl.concat(
        [pl.read_parquet(im, columns=["barcode", "virn"]),
         pl.read_parquet(pool, columns=["prize_cents", "tier"])],
        how="horizontal",
    ).with_row_index("i")
    rare = pl.len().over("tier") <= RARE
    return rows.filter(rare | (pl.col("i") % STRIDE == 0)).drop("i")


@pytest.mark.parametrize("game", list(PRINTED))
def test_claimed_tickets_validate_to_their_prize_and_nothing_else(runs, game):
    folder = runs["runs"][game]
    low_key, high_key = runs["keys"]
    low, high = (ValidationFile.read(folder / TIERS[t]) for t in ("low", "high"))
    threshold = low.head["high_tier_cents"]
    assert threshold == 60000
    rows = _tickets(folder)
    barcodes_, virns, prizes = (
        rows["barcode"].to_list(),
        rows["virn"].to_list(),
        rows["prize_cents"].to_list(),
    )
    free = set(json.loads((folder / "manifest.json").read_bytes())["print"]["free_ticket_tiers"])
    tiers = rows["tier"].to_list()
    assert len(set(tiers)) == len(json.loads((folder / "manifest.json").read_bytes())["pools"][0]["tiers"])
    other = virns[1:] + virns[:1]  # each ticket claimed with the next claimed ticket's validation number
    for b, v, p, w, t in zip(barcodes_, virns, prizes, other, tiers, strict=True):
        got_low, got_high = low.lookup(low_key, game, b, v), high.lookup(high_key, game, b, v)
        flag = FREE if t in free else 0
        want = (0, 0) if p == 0 else (OTHER_TIER, p | flag) if p >= threshold else (p | flag, OTHER_TIER)
        assert (got_low, got_high) == want
        assert low.lookup(low_key, game, b, w) is None and high.lookup(high_key, game, b, w) is None
    for b, v in zip(barcodes_[:2000], virns[:2000], strict=True):  # the other key, a changed VIRN
        assert low.lookup(high_key, game, b, v) is None and high.lookup(low_key, game, b, v) is None
        changed = f"{(int(v) + 1) % 10 ** len(v):0{len(v)}d}"
        assert low.lookup(low_key, game, b, changed) is None
    if game == "wild_side":
        assert sum(p >= threshold for p in prizes) > 0  # Wild Side has high-tier prizes: they were tested


@pytest.mark.parametrize("nesting", [100_000, 10])
def test_a_header_of_deeply_nested_json_is_not_a_validation_file_not_a_recursion_error(tmp_path, nesting):
    """A header line of 100,000 nested brackets (a file re-listed in a signed manifest by whoever holds the
    signing key) made the desk's `validate` die on a RecursionError traceback; it is no validation file."""
    path = tmp_path / "validation-low.bin"
    path.write_bytes(b"[" * nesting + b"]" * nesting + b"\n")
    with pytest.raises(ValidationError) as caught:
        ValidationFile.read(path)
    assert str(caught.value) == f"{path}: not a poolgen-validation/2 file"
