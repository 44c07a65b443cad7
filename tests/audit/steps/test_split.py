"""A split order's counts (docs/randomness.md 4b) as audit holds them: a 6-pool order with a tier of 4
verifies with audit alone, the seed's split re-derived by audit's own DRBG; an insider's run moving
one prize to another pool (every count still its share rounded down or up) fails step 7 with the seed;
a pool given its share rounded up plus one fails step 5 without it."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from audit.verify import VerifyRequest, verify_run
from poolgen.game.model import Game, PoolTier
from poolgen.loader import load_spec
from poolgen.pdf.specimens import specimen_rows
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from poolgen.run.split import split_game
from tests.support import SEED_A
from tests.support.reseal import resign
from tests.support.spec_docs import kn_doc, write

TOP = 4  # the top tier's index in a pool (lose, free, 1, 2, 6)


@pytest.fixture(scope="module")
def order(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("split")
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 12_000, "counts_per": "order", "split": "even"}
    doc["tiers"][3]["count"] = 4
    spec = write(root, doc)
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)
    files = new_key_pair(root / "keys", None)
    return {"root": root, "spec": spec, "game": load_spec(spec), "public": files.public,
            "signer": Signer.from_file(files.private)}


def _run(order: dict, game: Game, run_id: str) -> Path:
    signer = order["signer"]
    request = GenerateRequest(game, SEED_A, now=datetime(2026, 12, 3, tzinfo=UTC), out=order["root"] / "runs",
                              run_id=run_id, signature=signer.manifest_entry())
    return generate(request, finish=signer.sign_run).folder


def _steps(order: dict, run: Path, seed: bool) -> list[dict]:
    request = VerifyRequest(run=run, public_key=order["public"],
                            seed_file=order["root"] / "run.seed" if seed else None)
    return verify_run(request).to_json()["steps"]


def _moved(game: Game, counts: list[int]) -> Game:
    """The drawn game with the top tier's counts per pool replaced (losers absorbing the difference):
    what an insider's generator writes instead of the seed's split."""
    drawn = split_game(game, SEED_A)
    pools = []
    for pool, c in zip(drawn.pools, counts, strict=True):
        tiers = list(pool.tiers)
        tiers[TOP] = replace(tiers[TOP], count=c)
        tiers[0] = PoolTier("lose", 0, pool.tickets - sum(t.count for t in tiers[1:]))
        pools.append(replace(pool, tiers=tuple(tiers)))
    return replace(drawn, pools=tuple(pools))


def test_the_seeds_split_verifies_with_audit_alone(order):
    run = _run(order, order["game"], "honest")
    doc = json.loads((run / "manifest.json").read_bytes())
    assert [p["tiers"][TOP]["count"] for p in doc["pools"]] == [1, 1, 0, 1, 0, 1]
    assert doc["print"]["split"] == {"rule": "even", "order_tickets": 12_000, "pool_tickets": 2_000,
                                     "tiers": [{"id": "free", "count": 100}, {"id": "1", "count": 100},
                                               {"id": "2", "count": 50}, {"id": "6", "count": 4}]}
    assert "poolgen/v1/test_game/order/split" in doc["drbg"]["streams"]
    steps = _steps(order, run, seed=True)
    assert [s["status"] for s in steps] == ["pass"] * 6 + ["skip", "pass", "pass"], steps
    assert any("counts split evenly: every tier of 6 pool(s) within one of its exact share, adding up to "
               "the order's" in d for d in steps[4]["details"]), steps[4]["details"]
    assert any("the counts per tier of 6 pool(s) (the order's split)" in d for d in steps[6]["details"]), \
        steps[6]["details"]


def test_a_prize_moved_to_another_pool_fails_step_7_with_the_seed(order):
    run = _run(order, _moved(order["game"], [1, 1, 1, 0, 0, 1]), "moved")  # p3 takes p4's top prize
    without = _steps(order, run, seed=False)
    assert [s["status"] for s in without][:6] == ["pass"] * 6  # every count within its share
    steps = _steps(order, run, seed=True)
    assert steps[6]["status"] == "fail"
    assert ("seed matches the commitment; pool p3: tier 6 has 1, the seed's split gives 0; pool p4: tier 6 "
            "has 0, the seed's split gives 1 (docs/randomness.md 4b: the order's split stream)") in \
        steps[6]["reasons"], steps[6]["reasons"]


def test_a_pool_given_its_share_rounded_up_plus_one_fails_step_5_without_the_seed(order):
    run = _run(order, _moved(order["game"], [2, 1, 0, 0, 0, 1]), "crowded")  # still 4 in all
    steps = _steps(order, run, seed=False)
    assert steps[4]["status"] == "fail"
    assert ("counts split evenly (print.split): pool p1: tier 6 has 2, its share of 4 per order is 0 or 1"
            in steps[4]["reasons"]), steps[4]["reasons"]


def test_with_the_spec_step_5_holds_print_split_to_the_spec(order):
    """An insider's manifest stating a top tier of 5 per order (so 4 in the pools looks short by one, not
    theirs to give) fails step 5 against the spec; the spec is the split's source."""
    run = _run(order, order["game"], "restated")

    def five(doc: dict) -> None:
        doc["print"]["split"]["tiers"][3]["count"] = 5
    resign(run, five, order["signer"])
    request = VerifyRequest(run=run, public_key=order["public"], spec=order["spec"])
    steps = verify_run(request).to_json()["steps"]
    assert steps[4]["status"] == "fail"
    said = " ".join(steps[4]["reasons"])
    assert "print.split.tiers[3] {'count': 5, 'id': '6'}, spec {'id': '6', 'count': 4}" in said, said
    assert "tier 6: the pools hold 4, the order 5" in said, said


def test_a_print_split_of_a_billion_pools_fails_step_5_in_one_line_at_once(order):
    """A signed manifest's print.split is input: pools of one ticket in an order of 10^10 would be a list
    of 10^10 sizes, never drawn."""
    run = _run(order, order["game"], "hostile")
    resign(run, lambda doc: doc["print"]["split"].update(order_tickets=10**10, pool_tickets=1),
           order["signer"])
    steps = _steps(order, run, seed=True)
    assert steps[4]["status"] == "fail" and steps[6]["status"] == "fail"
    assert ("print.split.order_tickets: must be a whole number, whole pools of pool_tickets and a rest, at "
            "most 64 pools (docs/manifest.md)") in steps[4]["reasons"], steps[4]["reasons"]


def test_proof_specimens_of_a_split_pool_are_of_the_tiers_the_pool_holds(order):
    """`poolgen proof` draws one specimen of every tier a pool holds: of a split order, by the run's
    counts (p3 holds no top prize, p1 one), not the spec's shares rounded down (no top prize anywhere)."""
    run = _run(order, order["game"], "specimens")
    rows = specimen_rows((run / "manifest.json").read_bytes(), order["game"], ["p1", "p3"])
    assert [(pid, row["tier"]) for pid, row in rows] == [
        ("p1", t) for t in ("lose", "free", "1", "2", "6")] + [("p3", t) for t in ("lose", "free", "1", "2")]
