"""Pack parameters beside a split order (docs/new-game.md 2b, docs/randomness.md 5.11) as audit holds them:
six pools of 2,000 whose counts the seed draws, every pack at least $1.00 of prizes; the run verifies
with its spec and seed, every pool's every pack meets the floor with that pool's own counts (step 5),
step 8 tests each pool's packs with its own drawn counts, and a re-signed run whose one pack of one pool
holds no prize is refused at step 5, naming the pool, the pack and the parameter."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.run.signing import Signer
from tests.support import SEED_A
from tests.support.reseal import reseal_pool
from tests.support.split_run import SplitRun, split_run

KEEP = ["position", "ticket", "book", "ticket_no", "salt"]  # what a swap of two tickets' contents keeps


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> SplitRun:
    return split_run(tmp_path_factory.mktemp("packs-split"), packs={"min_prize_value": "1.00"})


def _verify(made: SplitRun, run: Path) -> dict:
    seed = run.parent / "s.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(made.public), "--spec",
                                      str(made.spec), "--seed-file", str(seed), "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def _pools(run: Path) -> list[dict]:
    return json.loads((run / "manifest.json").read_text())["pools"]


def test_a_split_order_under_a_floor_verifies_every_pool_with_its_own_counts(made):
    pools = _pools(made.folder)
    drawn = [[t["count"] for t in p["tiers"]] for p in pools]
    assert len({tuple(c) for c in drawn}) > 1  # the seed drew different counts for different pools
    for p in pools:  # from the files alone: every pack of every pool holds at least $1.00
        prize = pl.read_parquet(made.folder / f"pool-{p['id']}.parquet")["prize_cents"].to_numpy()
        assert prize.reshape(40, 50).sum(axis=1).min() >= 100
    report = _verify(made, made.folder)
    assert report["failed_steps"] == []
    assert [s["status"] for s in report["steps"]][:8] == ["pass"] * 8
    for p, counts in zip(pools, drawn, strict=True):
        met = [d for d in report["steps"][4]["details"]
               if d.startswith(f"pool {p['id']}: every one of 40 packs meets the spec's pack parameters (")]
        assert len(met) == 1, report["steps"][4]["details"]
        # step 8 tests the pool's packs with its own drawn counts: $1.00 is the free tier and the $1 tier
        ones = counts[1] + counts[2]
        assert any(d.startswith(f"pool {p['id']}: prize level $1.00 ({ones} tickets) per book by tenth of "
                                "the books") for d in report["steps"][7]["details"]), (p["id"], ones)


def test_a_resigned_split_run_whose_one_pack_holds_no_prize_is_refused_naming_it(made, tmp_path):
    """The lone winner of a pack of pool p1 swaps places with a loser of another pack: that pack holds
    $0 of prizes; the file hash and Merkle root restated and the run re-signed."""
    run = tmp_path / "run"
    shutil.copytree(made.folder, run)
    table = pl.read_parquet(run / "pool-p1.parquet")
    prize = table["prize_cents"].to_list()
    winners = [sum(1 for c in prize[b * 50:(b + 1) * 50] if c) for b in range(40)]
    lone = winners.index(1)
    winner = next(p for p in range(lone * 50, lone * 50 + 50) if prize[p])
    loser = next(p for p in range(2_000) if p // 50 != lone and not prize[p])
    order = list(range(table.height))
    order[winner], order[loser] = loser, winner
    moved = table.select(pl.exclude(KEEP))[order]
    table = pl.concat([table.select(KEEP), moved], how="horizontal").select(table.columns)
    reseal_pool(run, "pool-p1.parquet", table, Signer.from_file(made.private))
    report = _verify(made, run)
    assert 5 in report["failed_steps"]
    book = table["book"][winner]
    assert report["steps"][4]["reasons"] == [
        f"pool p1: 1 pack(s) break packs.min_prize_value (100 cents): book {book} pays 0 cents"]


def test_a_split_order_under_one_cap_is_held_to_its_exact_law_pool_by_pool(tmp_path):
    """At least one winner a pack and at most one $2 or $6 (docs/randomness.md 5.6, exact): each pool is
    drawn with its own counts (8 or 9 of $2, 0 or 1 of $6), and step 8 tests its capped tickets' places
    against 5.6's law and leaves them out of the runs, pool by pool."""
    made = split_run(tmp_path, packs={"min_winners": 1, "caps": [{"tiers": ["2", "6"], "at_most": 1}]})
    report = _verify(made, made.folder)
    assert report["failed_steps"] == []
    held = {p["id"]: p["tiers"][3]["count"] + p["tiers"][4]["count"] for p in _pools(made.folder)}
    assert set(held.values()) == {8, 9, 10}  # the seed drew different counts for different pools
    for pool, count in held.items():
        tier = pl.read_parquet(made.folder / f"pool-{pool}.parquet")["tier"].to_numpy().reshape(40, 50)
        assert ((tier == "2") | (tier == "6")).sum(axis=1).max() == 1
        assert ((tier == "2") | (tier == "6")).sum() == count
        assert (tier != "lose").sum(axis=1).min() >= 1
        assert any(d.startswith(f"pool {pool}: runs of winners and losers within each book, the capped "
                                "tickets (packs.caps[0]) left out") for d in report["steps"][7]["details"])
