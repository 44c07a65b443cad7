"""prize_box layouts (poolgen/styles/prize_box.py) read back here from docs/styles/prize_box.md alone:
a full pool of Lucky Pairs (specs/examples/lucky_pairs.toml) wins exactly its tier's games, each at
the prize its box shows; boxes of games without a win follow the pool's mix of won prizes; the loader
refuses, in one line, what it cannot lay out."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from tests.support.cli import invoke, one_line
from tests.support.laid_out import laid_out_first_pool
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/lucky_pairs.toml"
CENTS = [100, 200, 500, 1000, 5000, 50000]  # the example's prizes in code order


@pytest.fixture(scope="module")
def full_pool():
    return laid_out_first_pool(EXAMPLE)


def test_every_ticket_wins_exactly_its_tiers_games(full_pool):
    spec, pool, tiers, cols = full_pool
    n = tiers.size
    spots = np.stack([cols[f"games_spot_{j}"] for j in range(18)], axis=1).astype(np.int64).reshape(n, 6, 3)
    boxes = np.stack([cols[f"games_prize_{g}"] for g in range(6)], axis=1).astype(np.int64)
    counts = np.stack([(spots == c).sum(axis=2) for c in range(6)], axis=2)
    assert counts.max() <= 2 and ((counts == 2).sum(axis=2) <= 1).all()
    won = (counts == 2).any(axis=2)
    paid = np.where(won, np.array(CENTS)[boxes], 0).sum(axis=1)
    want = np.array([t.prize_cents for t in pool.tiers])[tiers]
    np.testing.assert_array_equal(paid, want)
    games_won = np.array([len(spec.play.wins[t.id]) for t in pool.tiers])[tiers]
    np.testing.assert_array_equal(won.sum(axis=1), games_won)
    mix = Counter()
    for t in pool.tiers:
        for w in spec.play.wins[t.id]:
            mix[CENTS.index(w.prize.cents)] += t.count
    quiet = np.bincount(boxes[~won], minlength=6)
    expected = np.array([mix[i] for i in range(6)]) / sum(mix.values()) * quiet.sum()
    assert chisquare(quiet, expected).pvalue > 1e-4


def _doc(**area: object) -> dict:
    pictures = [{"group": "pic", "code": c, "symbol": c} for c in ("A", "B", "C")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "pb", "style": "prize_box", "games": 2, "spots": 3, "match": 2, "pictures": "pic",
            "prizes": "pz"}
    base.update(area)
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "pb", "prize": "1", "how": "match"}]}]
    return base_doc([base], pictures + prizes, tiers, pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"match": 4}, "areas[0].match: 4 like pictures do not fit 3 spots"),
    ({"spots": 4}, "areas[0].pictures: 3 pictures cannot fill a game of 4 spots, each fewer than 2 times"),
    ({"games": 33}, "areas[0].games: must be at most 32, got 33"),
    ({"spots": 1}, "areas[0].spots: must be at least 2, got 1"),
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


@pytest.mark.parametrize(("wins", "message"), [
    ([{"area": "pb", "prize": "7", "how": "match"}],
     "wins[0].prize: area 'pb' (prize_box): prize '7' is not one"),
    ([{"area": "pb", "prize": "1", "how": "reveal"}], "wins[0].how: area 'pb' (prize_box): how = 'reveal'"),
    ([{"area": "pb", "prize": "1", "how": "match"}] * 3, "wins: 3 wins, but a ticket wins at most 1 times"),
])
def test_wins_it_cannot_lay_out_are_refused(tmp_path, wins, message):
    doc = _doc()
    doc["tiers"][0]["wins"] = wins
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: tiers[0].{message}")


def test_more_wins_than_games_are_refused(tmp_path):
    doc = _doc()
    doc["play"]["max_wins"] = 3
    doc["tiers"][0]["wins"] = [{"area": "pb", "prize": "1", "how": "match"}] * 3
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: tiers[0].wins: area 'pb' (prize_box): 3 wins, but the area has 2 games (one win each)")
