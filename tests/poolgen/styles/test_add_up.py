"""add_up layouts (poolgen/styles/add_up.py) read back here from docs/styles/add_up.md alone: a full
pool of Lucky 21 (specs/examples/lucky_21.toml) wins exactly its tier's games at the prizes they show;
the loader refuses, in one line, what it cannot lay out."""

from __future__ import annotations

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/lucky_21.toml"
CENTS = [200, 400, 1000, 5000, 50000]  # the example's prizes in code order; numbers 1..11 are codes 0..10


def test_every_ticket_wins_exactly_its_tiers_games():
    spec = load_spec(EXAMPLE)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    n = tiers.size
    codes = np.stack([cols[f"add_spot_{j}"] for j in range(15)], axis=1).astype(np.int64)
    values = codes.reshape(n, 5, 3) + 1
    boxes = np.stack([cols[f"add_prize_{g}"] for g in range(5)], axis=1).astype(np.int64)
    assert values.max() <= 11 and boxes.max() <= 4
    won = values.sum(axis=2) >= 21
    np.testing.assert_array_equal(np.where(won, np.array(CENTS)[boxes], 0).sum(axis=1),
                                  np.array([t.prize_cents for t in pool.tiers])[tiers])


def _doc(**area: object) -> dict:
    numbers = [{"group": "num", "code": c, "symbol": c} for c in ("1", "2", "3")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "au", "style": "add_up", "games": 2, "spots": 2, "numbers": "num", "target": 5,
            "reach": "at_least", "prizes": "pz"}
    base.update(area)
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "au", "prize": "1", "how": "match"}]}]
    return base_doc([base], numbers + prizes, tiers, pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"reach": "near"}, "areas[0].reach: \"at_least\" or \"exactly\", not 'near'"),
    ({"target": 7}, "areas[0].target: a game of 2 numbers must be able to reach 7"),
    ({"target": 2}, "areas[0].target: a game of 2 numbers must be able to miss 2"),
    ({"target": -1}, "areas[0].target: must be at least 0, got -1"),
    ({"spots": 16}, "areas[0].spots: 3 numbers in 16 spots are more than 65,536 tuples to draw from"),
    ({"games": 33}, "areas[0].games: must be at most 32, got 33"),
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_numbers_that_are_not_values_are_refused(tmp_path):
    doc = _doc()
    doc["symbols"][0]["code"] = "ONE"
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[0].numbers: each number's code is its value, a whole number 0..999999")
