"""A win-all win that pins the prizes it shows (`shows`, docs/styles/key_number_match.md, sections 2 and
7.1), on specs/examples/red_hot_wild_7s.toml as written: New Hampshire's "(($5 x 10) + ($10 x 5))
w/FLAME" rows. What `check` refuses, naming the win's `shows`; every pinned ticket laid out shows its
FLAME once and exactly the pinned prizes (and audit's engine pays it its sum); the manifest states
the pin; the pinned prizes come in a uniform order."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import tracemalloc
from collections import Counter

import numpy as np
import polars as pl
import pytest
from scipy.special import chdtrc

from audit.styles.play import evaluate
from poolgen.errors import SpecError
from poolgen.files.write import canonical_bytes
from poolgen.game.play import WinError
from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.styles import key_number_all, key_number_match
from poolgen.styles.key_number_all import draw_prizes
from tests.support import ROOT
from tests.support.spec_docs import replaced

SPEC = ROOT / "specs" / "examples" / "red_hot_wild_7s.toml"
FLAME = 10  # the your-number code of the FLAME: 8 pictures, then B7, R7, FLAME
PIN = 'prize = "100.00", shows = { "5" = 10, "10" = 5 }'  # tiers[13], "100f"


@pytest.fixture(scope="module")
def game():
    return load_spec(SPEC)


def _refusal(tmp_path, new: str, old: str = PIN) -> str:
    with pytest.raises(SpecError) as caught:
        load_spec(replaced(SPEC, tmp_path, old, new))
    return str(caught.value)


def test_check_does_not_search_for_a_sum_its_pin_makes(monkeypatch):
    """A pin that fills the area's spots and adds up to the sum shows the sum can be made: `check`
    searched the prize symbols' sums for each of the example's three pinned win-all wins anyway."""
    searched = []
    search = key_number_all.prize_sets

    def spy(values, yours, total):
        searched.append(total)
        return search(values, yours, total)

    monkeypatch.setattr(key_number_all, "prize_sets", spy)
    monkeypatch.setattr(key_number_match, "prize_sets", spy, raising=False)  # where it was searched from
    game = load_spec(SPEC)
    assert searched == []
    assert [w.shows for t in game.tiers for w in game.play.wins[t.id] if w.how == "all"] == [
        (("5", 10), ("10", 5)), (("25", 10), ("50", 5)), (("50", 10), ("100", 5))]


def test_a_pinned_sum_more_sets_make_than_the_search_lists_is_read_by_its_pin(game):
    """The search's bounds are for an unpinned sum, whose layout draws among every set that makes it; a
    pinned tier shows its one set (section 7.1), so 30 spots of prizes 1 .. 10 cents adding up to $1.65,
    refused unpinned (more than 100,000 sets), are read pinned as 15 x 5 cents + 15 x 6 cents."""
    params = game.play.areas[0].params
    cents = [dataclasses.replace(params.prizes[0], code=str(c), cents=c) for c in range(1, 11)]
    wide = dataclasses.replace(params, yours=30, prizes=tuple(cents))
    symbol, by, shown = key_number_all.read_pinned(wide, None, "1.65", {"5": 15, "6": 15})
    assert (symbol.cents, by, shown) == (165, 1, (("5", 15), ("6", 15)))
    with pytest.raises(WinError) as caught:
        key_number_all.read_pinned(wide, None, "1.65", {"5": 15, "6": 14})  # a pin that does not make it
    assert (caught.value.field, str(caught.value)) == ("prize", "more than 100,000 sets of prizes make it")


def test_check_refuses_pinned_prizes_that_do_not_fill_the_areas_15_spots(tmp_path):
    assert _refusal(tmp_path, 'prize = "100.00", shows = { "5" = 12, "10" = 4 }') == (
        f"{tmp_path}/red_hot_wild_7s.toml: tiers[13].wins[0].shows: area 'play' (key_number_match): 16 "
        "prizes shown, "
        "but the win-all symbol wins the area's 15: its spots hold one prize each")


def test_check_refuses_pinned_prizes_that_do_not_add_up_to_the_win(tmp_path):
    assert _refusal(tmp_path, 'prize = "100.00", shows = { "5" = 10, "20" = 5 }') == (
        f"{tmp_path}/red_hot_wild_7s.toml: tiers[13].wins[0].shows: area 'play' (key_number_match): the "
        "prizes shown "
        "add up to $150.00, but the win pays $100.00")


def test_check_refuses_a_pinned_prize_the_area_does_not_have_or_a_count_below_one(tmp_path):
    assert _refusal(tmp_path, 'prize = "100.00", shows = { "5" = 10, "15" = 5 }') == (
        f"{tmp_path}/red_hot_wild_7s.toml: tiers[13].wins[0].shows: area 'play' (key_number_match): '15' "
        "is not one of "
        "the area's prize symbols (5, 10, 20, 25, 40, 50, 100, 200, 500, 1000, 77777)")
    assert _refusal(tmp_path, 'prize = "100.00", shows = { "5" = 10, "10" = 5, "20" = 0 }') == (
        f"{tmp_path}/red_hot_wild_7s.toml: tiers[13].wins[0].shows: area 'play' (key_number_match): '20': "
        "0 is not a "
        "whole number of spots 1 .. 15")
    assert _refusal(tmp_path, 'prize = "100.00", shows = [ "5", "10" ]') == (
        f"{tmp_path}/red_hot_wild_7s.toml: tiers[13].wins[0].shows: must be a table, not ['5', '10']")


def test_check_refuses_shows_on_a_win_that_is_not_a_win_all_win(tmp_path):
    assert _refusal(tmp_path, 'prize = "5", how = "automatic", shows = { "5" = 15 } }',
                    old='prize = "5", how = "automatic" }') == (
        f"{tmp_path}/red_hot_wild_7s.toml: tiers[0].wins[0].shows: only a win-all win (how = \"all\") pins "
        "the prizes "
        "its area shows")


def test_the_manifest_states_the_pinned_prizes_keys_sorted_as_every_canonical_object(game):
    """Contract section 2: the signed bytes hold `shows` with its codes sorted by code point ("10" before
    "5"), as every object of the canonical manifest (the section said poolgen wrote `prizes` order)."""
    assert b'"shows":{"10":5,"5":10}' in canonical_bytes(game.play.document())
    tiers = {t["id"]: t["wins"] for t in game.play.document()["tiers"]}
    assert tiers["100f"] == [{"area": "play", "how": "all", "by": 1, "prize": "FLAME", "prize_cents": 10_000,
                              "shows": {"5": 10, "10": 5}}]
    assert tiers["1000f"][0]["shows"] == {"50": 10, "100": 5}
    assert "shows" not in tiers["100x10"][0]


@pytest.mark.parametrize(("tier", "codes"), [("100f", (0, 1)), ("500f", (3, 5)), ("1000f", (5, 6))])
def test_every_pinned_flame_ticket_shows_the_flame_once_and_exactly_its_pinned_prizes(game, tier, codes):
    pool = game.pools[0]
    index = next(i for i, t in enumerate(pool.tiers) if t.id == tier)
    out = game.play.lay_out(game, pool, np.full(300, index), derive_stream(bytes(32), "test", "flame"))
    your = np.stack([out[f"play_your_{j}"] for j in range(15)], axis=1).astype(int)
    prize = np.stack([out[f"play_prize_{j}"] for j in range(15)], axis=1).astype(int)
    assert ((your == FLAME).sum(axis=1) == 1).all() and (your < 8).sum() == 300 * 14  # no 7 beside it
    want = [0] * 11
    want[codes[0]], want[codes[1]] = 10, 5
    assert all(np.bincount(r, minlength=11).tolist() == want for r in prize)
    assert len({tuple(r) for r in prize.tolist()}) > 250  # in varied orders (3,003 of them)
    table = pl.DataFrame({"tier": [tier] * 300} | out)
    judged = evaluate(table, {"id": pool.id}, game.play.document())
    assert judged.illegal == [] and set(judged.prize_cents.tolist()) == {pool.tiers[index].prize_cents}


def test_a_pinned_multiset_is_put_in_a_uniform_order():
    """Two $5 and one $10 in 3 spots: each of the 3 orders about a third of 30,000 draws (a fixed seed;
    chi-square, p below 1e-4 fails: the order left unshuffled, or shuffled by a biased swap, fails)."""
    codes = draw_prizes(derive_stream(bytes(32), "test", "pinned"), (500, 1000), 3, 2000, 30_000, (2, 1))
    got = Counter(map(tuple, codes.tolist()))
    orders = sorted(set(itertools.permutations((0, 0, 1))))
    assert set(got) == set(orders)
    observed = np.array([got[o] for o in orders], dtype=float)
    stat = float(((observed - 10_000) ** 2 / 10_000).sum())
    assert chdtrc(2, stat) > 1e-4, stat


def test_audit_counts_the_pins_on_the_pinned_tiers_rows_alone(game):
    """audit's evaluation of 100,000 rows (99,000 losers, 1,000 of "$100 w/FLAME") peaks no higher with
    the manifest's pins than without them: counting every row's prizes for each pinned win took a third
    more memory (1,277 MiB against 935 on a Red Hot pool of 1,010,000) and half more CPU."""
    pool = game.pools[0]
    flame = next(i for i, t in enumerate(pool.tiers) if t.id == "100f")
    tiers = np.where(np.arange(100_000) % 100 == 0, flame, 0)
    out = game.play.lay_out(game, pool, tiers, derive_stream(bytes(32), "test", "pins"))
    table = pl.DataFrame({"tier": [pool.tiers[t].id for t in tiers]} | out)
    pinned = game.play.document()
    unpinned = copy.deepcopy(pinned)
    for t in unpinned["tiers"]:
        for w in t["wins"]:
            w.pop("shows", None)
    peaks = []
    for play in (unpinned, pinned):
        tracemalloc.start()
        judged = evaluate(table, {"id": pool.id}, play)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert judged.illegal == []
    assert peaks[1] <= peaks[0] * 1.02, peaks
