"""add_up with several targets ("add the two dice of each ROLL: a total of 7 or 11 wins its PRIZE"):
`target` a list with `reach = "exactly"` (docs/styles/add_up.md, section 2). A pool of dice games
wins exactly its tier's games, every other game adds up to neither target; the loader refuses a list
it cannot use, in one line."""

from __future__ import annotations

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps


def _doc(**area: object) -> dict:
    dice = [{"group": "die", "code": c, "symbol": c} for c in "123456"]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("2", "5")]
    base = {"id": "roll", "style": "add_up", "games": 4, "spots": 2, "numbers": "die", "target": [7, 11],
            "reach": "exactly", "prizes": "pz"}
    base.update(area)
    tiers = [{"id": "t2", "count": 300, "wins": [{"area": "roll", "prize": "2", "how": "match"}]},
             {"id": "t7", "count": 100, "wins": [{"area": "roll", "prize": "2", "how": "match"},
                                                 {"area": "roll", "prize": "5", "how": "match"}]}]
    return base_doc([base], dice + prizes, tiers, pool_tickets=1000, max_wins=4)


def test_a_pool_of_dice_games_wins_on_7_or_11_only_as_its_tiers_say(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_doc()))
    spec = load_spec(tmp_path / "g.toml")
    assert spec.play.document()["areas"][0]["target"] == [7, 11]
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    dice = np.stack([cols[f"roll_spot_{j}"] for j in range(8)], axis=1).astype(np.int64).reshape(-1, 4, 2) + 1
    totals = dice.sum(axis=2)
    won = (totals == 7) | (totals == 11)
    boxes = np.stack([cols[f"roll_prize_{g}"] for g in range(4)], axis=1).astype(np.int64)
    paid = np.where(won, np.array([200, 500])[boxes], 0).sum(axis=1)
    np.testing.assert_array_equal(paid, np.array([t.prize_cents for t in pool.tiers])[tiers])
    assert set(np.unique(totals[~won])) == {2, 3, 4, 5, 6, 8, 9, 10, 12}  # every other total shows


@pytest.mark.parametrize(("change", "message"), [
    ({"reach": "at_least"}, "areas[0].target: a list of targets needs reach = \"exactly\" (with \"at_least\" "
                            "only the smallest counts: give it alone)"),
    ({"target": [7]}, "areas[0].target: a list of 2 to 16 distinct whole numbers >= 0, not [7]"),
    ({"target": [7, 7]}, "areas[0].target: a list of 2 to 16 distinct whole numbers >= 0, not [7, 7]"),
    ({"target": [7, -1]}, "areas[0].target: a list of 2 to 16 distinct whole numbers >= 0, not [7, -1]"),
    ({"target": [7, 13]}, "areas[0].target: a game of 2 numbers cannot add up to 13"),
    ({"target": list(range(2, 13))}, "areas[0].target: a game of 2 numbers must be able to miss "
                                     "2 or 3 or 4 or 5 or 6 or 7 or 8 or 9 or 10 or 11 or 12"),
])
def test_a_list_of_targets_it_cannot_use_is_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")
