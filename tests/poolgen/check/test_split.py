"""`poolgen check` of a split order (docs/new-game.md section 2): the order's figures are its exact
counts, each pool's its shares rounded down, and a note says how the counts are split."""

from __future__ import annotations

import json

from tests.support.cli import invoke
from tests.support.spec_docs import kn_doc, write


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
