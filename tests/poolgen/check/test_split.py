"""`poolgen check` of a split order (docs/new-game.md section 2): the order's figures are its exact
counts, each pool's its shares rounded down, and a note says how the counts are split."""

from __future__ import annotations

import json

from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, kn_doc, write


def test_check_reports_the_orders_exact_counts_and_says_how_they_are_split(tmp_path):
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 12_000, "counts_per": "order", "split": "even"}
    doc["tiers"][3]["count"] = 4
    result = invoke("check", write(tmp_path, doc), "--json")
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    assert [t["count"] for t in game["order"]["tiers"]] == [11_746, 100, 100, 50, 4]
    assert [t["count"] for t in game["pools"][0]["tiers"]] == [1_960, 16, 16, 8, 0]
    assert ("Test Game: counts split evenly (printed.split = \"even\"): 4 of 4 tiers do not scale exactly "
            "to every pool; each pool holds its exact share rounded down or up, which pools round up drawn "
            "from the run's seed (docs/randomness.md 4b), the pools adding up to the order's counts; the "
            "pools' figures show the shares rounded down, the order's are exact (tier 6, 4 per order: p1 0 "
            "or 1, p2 0 or 1, p3 0 or 1, p4 0 or 1, p5 0 or 1, p6 0 or 1)") in game["notes"], game["notes"]


def _lone_loser_doc() -> dict:
    """Two pools of 10 (one book each), nine tiers of one ticket an order, every loser laid out alike (one
    picture, one prize): every share rounded up leaves a pool one loser, but a pool holds 5 to 9."""
    specials = [{"group": "special", "code": "A", "symbol": "A", "how": "automatic"}] + [
        {"group": "special", "code": f"X{k}", "symbol": f"X{k}", "how": "multiplier", "by": k}
        for k in range(2, 10)]
    symbols = [{"group": "picture", "code": "BAR", "symbol": "bar"},
               {"group": "prize", "code": "5", "symbol": "$5.00", "value": "5.00"}, *specials]
    area = {"id": "play", "style": "key_number_match", "spots": 2, "winning": 0, "yours": 1,
            "numbers": "picture", "prizes": "prize", "specials": "special"}
    tiers = [{"id": "a", "count": 1, "wins": [{"area": "play", "prize": "5", "how": "automatic"}]}] + [
        {"id": f"x{k}", "count": 1, "wins": [{"area": "play", "prize": "5", "how": "multiplier", "by": k}]}
        for k in range(2, 10)]
    doc = base_doc([area], symbols, tiers, pool_tickets=10, per_book=10)
    doc["printed"] |= {"order_tickets": 20, "counts_per": "order", "split": "even"}
    return doc


def test_the_neighbour_rule_is_checked_with_the_most_losers_a_split_pool_may_hold(tmp_path):
    """Check probed the losing tier with every winning share rounded up (one loser a pool: nothing to keep
    apart) and accepted a spec whose pools hold 5 to 9 losers of one layout: generate then refused it."""
    result = invoke("check", write(tmp_path, _lone_loser_doc()))
    one_line(result, "poolgen", "g.toml: packs.neighbours: tier lose of pool p1: 256 of 256 pairs of its "
                                "layouts drawn at random are identical, too many to keep the neighbours of a "
                                "pack of 10 apart")


def test_a_split_pools_top_prize_is_the_orders_though_its_share_rounds_down_to_none(tmp_path):
    """Every pool of a split order may hold one of its 4 top prizes (each pool's share is 2/3, shown
    rounded down to 0): its top prize is the order's, not the largest of its rounded-down rows."""
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 12_000, "counts_per": "order", "split": "even"}
    doc["tiers"][3]["count"] = 4
    result = invoke("check", write(tmp_path, doc), "--json")
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    assert [p["top_prize_cents"] for p in game["pools"]] == [600] * 6
    assert game["order"]["top_prize_cents"] == 600
