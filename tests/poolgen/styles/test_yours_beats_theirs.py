"""yours_beats_theirs layouts (poolgen/styles/yours_beats_theirs.py) read back here from
docs/styles/yours_beats_theirs.md alone: a full pool of High Card Duel
(specs/examples/high_card_duel.toml) wins exactly its tier's pairs at the prizes they show, ties lose;
the loader refuses, in one line, what it cannot lay out."""

from __future__ import annotations

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/high_card_duel.toml"
CENTS = [200, 400, 1000, 2000, 10000, 100000]  # the example's prizes in code order


def test_every_ticket_wins_exactly_its_tiers_pairs():
    spec = load_spec(EXAMPLE)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    yours = np.stack([cols[f"duel_yours_{p}"] for p in range(4)], axis=1).astype(np.int64)
    theirs = np.stack([cols[f"duel_theirs_{p}"] for p in range(4)], axis=1).astype(np.int64)
    boxes = np.stack([cols[f"duel_prize_{p}"] for p in range(4)], axis=1).astype(np.int64)
    assert yours.max() <= 12 and theirs.max() <= 12 and boxes.max() <= 5
    won = yours > theirs  # ties lose
    np.testing.assert_array_equal(np.where(won, np.array(CENTS)[boxes], 0).sum(axis=1),
                                  np.array([t.prize_cents for t in pool.tiers])[tiers])
    assert (yours == theirs).any()  # losing pairs include ties


def _doc(**area: object) -> dict:
    numbers = [{"group": "num", "code": c, "symbol": c} for c in ("1", "2", "3")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "yt", "style": "yours_beats_theirs", "pairs": 2, "numbers": "num", "prizes": "pz",
            "ties": "lose"}
    base.update(area)
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "yt", "prize": "1", "how": "match"}]}]
    return base_doc([base], numbers + prizes, tiers, pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"ties": "split"}, "areas[0].ties: \"win\" or \"lose\", not 'split'"),
    ({"pairs": 33}, "areas[0].pairs: must be at most 32, got 33"),
    ({"pairs": 0}, "areas[0].pairs: must be at least 1, got 0"),
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_more_wins_than_pairs_are_refused(tmp_path):
    doc = _doc()
    doc["play"]["max_wins"] = 3
    doc["tiers"][0]["wins"] = [{"area": "yt", "prize": "1", "how": "match"}] * 3
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: tiers[0].wins: area 'yt' (yours_beats_theirs): 3 wins, but the area has 2 pairs")
