"""The auditor's match_n engine (audit/styles/match_n.py, audit/styles/play.py) on Happy Holidays,
a spec of the style: written from docs/styles/match_n.md and docs/styles/play.md. Full pools come
from the real pipeline (poolgen.run.build); every illegal layout below starts from a real row. The tests
may use poolgen to build pools; the engines themselves never import it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.styles.interface import Evaluation
from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import spec_path

SEED = bytes(range(32))
SPOTS = [f"play_spot_{j}" for j in range(6)]
# specs/happy_holidays.md section 2, copied from the doc (not from the engine or the spec)
SYMBOL = ["FREE", "$1.00", "$2.00", "$5.00", "20.00", "$100"]
VALUE = [100, 100, 200, 500, 2000, 10_000]
TIER_CODE = {"free": 0, "1": 1, "2": 2, "5": 3, "20": 4, "100": 5}
SPEC_CODE = ["FREE", "1", "2", "5", "20", "100"]


def _manifest_pool(pool) -> dict:
    return {"id": pool.id, "price_cents": pool.price_cents, "tickets": pool.tickets,
            "tiers": [{"id": t.id, "prize_cents": t.prize_cents, "count": t.count} for t in pool.tiers]}


@pytest.fixture(scope="module")
def hh_game():
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pools[0]
    return spec.play.document(), _manifest_pool(pool), build_pool(spec, pool, SEED)


def _row(table: pl.DataFrame, row: int, **changes: int | str) -> pl.DataFrame:
    one = table.slice(row, 1)
    return one.with_columns(pl.lit(v).cast(one.schema[c]).alias(c) for c, v in changes.items())


def _counts(row: dict) -> Counter:
    return Counter(row[s] for s in SPOTS)


def _first(table: pl.DataFrame, tier: str, where=None) -> int:
    for r in np.flatnonzero((table["tier"] == tier).to_numpy()):
        if where is None or where(table.row(int(r), named=True)):
            return int(r)
    raise AssertionError(f"no row of tier {tier} fits")


def test_the_play_entry_is_the_contracts(hh_game):
    """What the manifest tells the auditor: specs/happy_holidays.md sections 1 and 2."""
    play = hh_game[0]
    assert play["max_wins"] == 1
    assert play["areas"] == [{"id": "play", "style": "match_n", "spots": 6, "match": 3,
                              "prizes": [{"code": c, "cents": v}
                                         for c, v in zip(SPEC_CODE, VALUE, strict=True)],
                              "multipliers": []}]
    assert play["tiers"] == [{"id": "lose", "wins": []}] + [
        {"id": t, "wins": [{"area": "play", "how": "match", "by": 1, "prize": SPEC_CODE[c],
                            "prize_cents": VALUE[c]}]} for t, c in TIER_CODE.items()]


def test_full_pool(hh_game):
    play, pool, table = hh_game
    ev = evaluate(table, pool, play)
    assert isinstance(ev, Evaluation)
    assert ev.prize_cents.dtype == np.int64 and ev.prize_cents.shape == (300_000,)
    assert np.array_equal(ev.prize_cents, table["prize_cents"].to_numpy())
    assert ev.illegal == []
    tiers = table["tier"].to_numpy()
    for t in pool["tiers"]:
        rows = tiers == t["id"]
        assert rows.sum() == t["count"]
        assert set(ev.wins[rows].tolist()) == {0 if t["id"] == "lose" else 1}
        assert set(ev.prize_cents[rows].tolist()) == {t["prize_cents"]}


def test_an_accidental_second_triple(hh_game):
    play, pool, table = hh_game
    r = _first(table, "2", lambda row: sorted(_counts(row).values()) == [1, 2, 3])
    row = table.row(r, named=True)
    counts = _counts(row)
    pair = next(c for c, n in counts.items() if n == 2)
    single = next(s for s in SPOTS if counts[row[s]] == 1)
    ev = evaluate(_row(table, r, **{single: pair}), pool, play)
    assert ev.prize_cents.tolist() == [200 + VALUE[pair]]
    assert ev.wins.tolist() == [2]
    assert ev.illegal == [(0, f"2 wins, at most 1; its wins are not its tier '2''s (2 win(s) paying "
                              f"{200 + VALUE[pair]} cents)")]


def test_a_loser_with_a_triple(hh_game):
    play, pool, table = hh_game
    r = _first(table, "lose", lambda row: sorted(_counts(row).values()) == [2, 2, 2])
    row = table.row(r, named=True)
    a, b = sorted(_counts(row))[:2]
    spot_b = next(s for s in SPOTS if row[s] == b)
    ev = evaluate(_row(table, r, **{spot_b: a}), pool, play)
    assert ev.prize_cents.tolist() == [VALUE[a]]
    assert ev.illegal == [(0, f"its wins are not its tier 'lose''s (1 win(s) paying {VALUE[a]} cents)")]


def test_the_same_prize_shown_by_another_symbol_is_illegal(hh_game):
    """A `free` winner and a `1` winner both pay 100 cents; three $1.00 on a free winner is not its win."""
    play, pool, table = hh_game
    r = _first(table, "free", lambda row: 1 not in _counts(row))
    row = table.row(r, named=True)
    ev = evaluate(_row(table, r, **{s: 1 for s in SPOTS if row[s] == 0}), pool, play)
    assert ev.prize_cents.tolist() == [100]
    assert ev.illegal == [(0, "its wins are not its tier 'free''s (1 win(s) paying 100 cents)")]


def test_four_of_a_kind_a_bad_code_and_an_unknown_tier(hh_game):
    play, pool, table = hh_game
    r = _first(table, "100", lambda row: sorted(_counts(row).values()) == [1, 2, 3])
    row = table.row(r, named=True)
    other = next(s for s in SPOTS if row[s] != 5)
    ev = evaluate(_row(table, r, **{other: 5}), pool, play)
    assert ev.illegal == [(0, "play: more than 3 like amounts; its wins are not its tier '100''s "
                              "(0 win(s) paying 0 cents)")]
    ev = evaluate(_row(table, r, **{other: 6}), pool, play)
    assert ev.illegal[0][1].startswith("play: a spot code out of range (")
    ev = evaluate(_row(table, r, tier="7"), pool, play)
    assert ev.illegal == [(0, "tier '7' is not in the manifest's play entry")]


def test_missing_or_non_integer_columns_are_refused(hh_game):
    play, pool, table = hh_game
    with pytest.raises(ValueError, match="layout columns missing: play_spot_5"):
        evaluate(table.head(3).drop("play_spot_5"), pool, play)
    with pytest.raises(ValueError, match="not of an integer type: play_spot_1"):
        evaluate(table.head(3).with_columns(pl.col("play_spot_1").cast(pl.Float64)), pool, play)


def _reference(spots: list[int], tier: str) -> tuple[int, int, bool]:
    """match_n.md section 5 and play.md, one row at a time: every amount shown 3 times is a win."""
    c = Counter(spots)
    triples = sorted(s for s in range(6) if c[s] == 3)
    prize = sum(VALUE[s] for s in triples)
    legal = (max(c.values()) <= 3 and len(triples) <= 1
             and triples == ([] if tier == "lose" else [TIER_CODE[tier]]))
    return prize, len(triples), legal


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 5), min_size=6, max_size=6),
                          st.sampled_from(["lose", *TIER_CODE])), min_size=1, max_size=60))
def test_matches_a_row_by_row_reading(hh_game, rows):
    play, pool, _ = hh_game
    table = pl.DataFrame({"tier": [t for _, t in rows]} | {
        s: pl.Series([spots[j] for spots, _ in rows], dtype=pl.UInt8) for j, s in enumerate(SPOTS)})
    ev = evaluate(table, pool, play)
    want = [_reference(spots, tier) for spots, tier in rows]
    assert ev.prize_cents.tolist() == [p for p, _, _ in want]
    assert ev.wins.tolist() == [w for _, w, _ in want]
    assert [r for r, _ in ev.illegal] == [i for i, (_, _, ok) in enumerate(want) if not ok]


@settings(max_examples=20, deadline=None)
@given(st.permutations(range(6)), st.integers(0, 299_000))
def test_spot_order_does_not_matter(hh_game, order, start):
    play, pool, table = hh_game
    part = table.slice(start, 1000)
    shuffled = part.with_columns(pl.col(SPOTS[order[j]]).alias(s) for j, s in enumerate(SPOTS))
    a, b = evaluate(part, pool, play), evaluate(shuffled, pool, play)
    assert np.array_equal(a.prize_cents, b.prize_cents) and np.array_equal(a.wins, b.wins)
    assert a.illegal == b.illegal == []
