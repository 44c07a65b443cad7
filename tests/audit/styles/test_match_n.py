"""The auditor's match_n engine (audit/styles/match_n.py, audit/styles/play.py) on Happy Holidays,
a spec of the style, written from docs/styles/match_n.md and docs/styles/play.md. Full pools come from
the real pipeline (poolgen.run.build); every illegal layout below starts from a real row. The tests may
use poolgen to build pools; the engines themselves never import it.

Then play entries and tables written by hand: the areas it refuses, the bounds it reads inclusively
(256 prize symbols), the row it names, and rules 3 and 4 of section 5 with what a row with a multiplier
symbol wins."""

from __future__ import annotations

from collections import Counter

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.styles import match_n
from audit.styles.interface import Evaluation, Reasons
from audit.styles.play import evaluate
from audit.styles.play import evaluate as evaluate_styles
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import spec_path
from tests.support.engines import manifest_pool as _manifest_pool
from tests.support.play_entries import mn_table, win

SEED = bytes(range(32))
SPOTS = [f"play_spot_{j}" for j in range(6)]
# specs/happy_holidays.md section 2, copied from the doc (not from the engine or the spec)
SYMBOL = ["FREE", "$1.00", "$2.00", "$5.00", "20.00", "$100"]
VALUE = [100, 100, 200, 500, 2000, 10_000]
TIER_CODE = {"free": 0, "1": 1, "2": 2, "5": 3, "20": 4, "100": 5}
SPEC_CODE = ["FREE", "1", "2", "5", "20", "100"]


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


def test_full_pool_pays_exactly(hh_game):
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


# ------------------------------------------------------------------------------------------------
# Play entries and tables written by hand
# ------------------------------------------------------------------------------------------------

MN_AREA = {"id": "play", "style": "match_n", "spots": 6, "match": 3,
           "prizes": [{"code": "1", "cents": 100}, {"code": "2", "cents": 200}],
           "multipliers": [{"code": "2X", "by": 2}]}


@pytest.mark.parametrize("change", [{"match": 1}, {"match": 7}, {"spots": "6"}, {"prizes": []},
                                    {"multipliers": None}])
def test_match_n_refuses_an_unreadable_area(change):
    with pytest.raises(ValueError) as caught:
        match_n.evaluate(pl.DataFrame(), MN_AREA | change, Reasons())
    assert str(caught.value) == ("manifest play entry: area 'play': spots, match, prizes or multipliers "
                                 "unreadable")


@pytest.mark.parametrize("by", [1, 0, 4096, "2"])
def test_match_n_refuses_a_multiplier_outside_2_to_4095(by):
    """docs/styles/match_n.md: each multiplier symbol has `by = k`, 2 <= k < 4096; refused when read,
    whether or not a row shows the symbol."""
    with pytest.raises(ValueError) as caught:
        match_n.evaluate(pl.DataFrame(), MN_AREA | {"multipliers": [{"code": "kX", "by": by}]}, Reasons())
    assert str(caught.value) == ("manifest play entry: area 'play': spots, match, prizes or multipliers "
                                 "unreadable")


def test_match_n_reads_256_prize_symbols_and_refuses_257():
    prizes = [{"code": str(k), "cents": 100 * (k + 1)} for k in range(257)]
    area = {"id": "play", "style": "match_n", "spots": 3, "match": 2, "prizes": prizes[:256],
            "multipliers": []}
    reasons = Reasons()
    slots = match_n.evaluate(mn_table([[255, 7, 255]]), area, reasons)
    assert reasons.illegal() == [] and len(slots) == 256
    assert [k for k, s in enumerate(slots) if s.won[0]] == [255]
    assert (slots[255].cents.tolist(), slots[255].by.tolist()) == ([25600], [1])
    with pytest.raises(ValueError) as exc:
        match_n.evaluate(mn_table([[0, 0, 1]]), {**area, "prizes": prizes}, Reasons())
    assert str(exc.value) == "manifest play entry: area 'play': more than 256 prize symbols"


def test_match_n_names_the_row_with_a_code_out_of_range_not_the_first():
    reasons = Reasons()
    slots = match_n.evaluate(mn_table([[0, 0, 0, 1, 1, 2], [0, 1, 0, 1, 5, 2]]), MN_AREA, reasons)
    assert reasons.illegal() == [(1, "play: a spot code out of range (0, 1, 0, 1, 5, 2)")]
    assert slots[0].won.tolist() == [True, True] and slots[0].by.tolist() == [1, 2]


# ------------------------------------------------------------------------------------------------
# match_n (docs/styles/match_n.md section 5): rules 3 and 4 per area, and what a row with a
# multiplier symbol wins. A play entry of two match_n areas, written by hand from the contract.
# ------------------------------------------------------------------------------------------------

def match_n_area(aid: str) -> dict:
    values = (("1", 100), ("2", 200), ("5", 500), ("10", 1000), ("20", 2000), ("50", 5000))
    return {"id": aid, "style": "match_n", "spots": 6, "match": 3,
            "prizes": [{"code": c, "cents": v} for c, v in values],
            "multipliers": [{"code": "2X", "by": 2}, {"code": "5X", "by": 5}]}


MATCH_N = {"max_wins": 3, "areas": [match_n_area("a"), match_n_area("b")], "tiers": [
    {"id": "lose", "wins": []},
    {"id": "2x1", "wins": [win("a", "1", 100, "multiplier", 2)]},
    {"id": "2", "wins": [win("a", "2", 200)]},
    {"id": "2+2x1", "wins": [win("a", "2", 200), win("a", "1", 100, "multiplier", 2)]},
    {"id": "2x1+2x2", "wins": [win("a", "1", 100, "multiplier", 2), win("a", "2", 200, "multiplier", 2)]}]}
# codes: $1 0, $2 1, $5 2, $10 3, $20 4, $50 5, 2X 6, 5X 7
LOSING = [0, 1, 2, 3, 0, 1]  # two $1, two $2, a $5, a $10: no win, no multiplier symbol


def match_n_rows(*rows: tuple[str, list[int], list[int]]) -> pl.DataFrame:
    data = [{"tier": t} | {f"a_spot_{j}": c for j, c in enumerate(a)}
            | {f"b_spot_{j}": c for j, c in enumerate(b)} for t, a, b in rows]
    return pl.DataFrame(data).with_columns(pl.exclude("tier").cast(pl.UInt8))


def test_match_n_rule_4_a_multiplier_symbol_beside_no_pair_per_area():
    """A 2X beside no two like amounts is refused in the area that shows it, whatever the tier: a
    loser; the other area of a multiplied winner; a winner of a match in the same area. A 2X beside a
    pair is a multiplied win instead (not rule 4)."""
    table = match_n_rows(("lose", [0, 1, 2, 3, 6, 1], LOSING),  # two $2 and 2X: a $4 win
                         ("lose", [0, 1, 2, 3, 4, 6], LOSING),  # five amounts and 2X
                         ("2x1", [0, 0, 6, 1, 2, 3], [1, 2, 3, 7, 4, 5]),  # a lone 5X in area b
                         ("2", [1, 1, 1, 6, 2, 3], LOSING))  # three $2 and a lone 2X
    result = evaluate_styles(table, {"id": "p1"}, MATCH_N)
    assert result.prize_cents.tolist() == [400, 0, 200, 200]
    assert result.illegal == [
        (0, "its wins are not its tier 'lose''s (1 win(s) paying 400 cents)"),
        (1, "a: 2X beside no 2 like amounts: it multiplies nothing"),
        (2, "b: 5X beside no 2 like amounts: it multiplies nothing"),
        (3, "a: 2X beside no 2 like amounts: it multiplies nothing")]


def test_match_n_rule_3_counts_spots_not_symbols():
    table = match_n_rows(("2x1", [0, 0, 6, 6, 2, 3], LOSING), ("2x1", [0, 0, 6, 7, 2, 3], LOSING))
    assert evaluate_styles(table, {"id": "p1"}, MATCH_N).illegal == [
        (0, "a: 2 multiplier symbols; its wins are not its tier '2x1''s (0 win(s) paying 0 cents)"),
        (1, "a: 2 multiplier symbols; its wins are not its tier '2x1''s (0 win(s) paying 0 cents)")]


def test_match_n_n_like_amounts_beside_a_multiplier_are_a_match_only():
    """Three $2, two $1 and a 2X: the $2 are a match (by 1), the $1 the multiplied win."""
    table = match_n_rows(("2+2x1", [1, 0, 1, 6, 1, 0], LOSING))
    result = evaluate_styles(table, {"id": "p1"}, MATCH_N)
    assert result.illegal == [] and result.prize_cents.tolist() == [200 + 2 * 100]
    assert result.wins.tolist() == [2]


def test_match_n_one_multiplier_symbol_multiplies_every_pair():
    table = match_n_rows(("2x1+2x2", [0, 1, 6, 1, 0, 2], LOSING), ("2x1", [0, 1, 6, 1, 0, 2], LOSING))
    result = evaluate_styles(table, {"id": "p1"}, MATCH_N)
    assert result.prize_cents.tolist() == [2 * 100 + 2 * 200] * 2
    assert result.illegal == [(1, "its wins are not its tier '2x1''s (2 win(s) paying 600 cents)")]
