"""The auditor's engines on Wild Side (audit/styles/: key_number_match for the areas `numbers` and
`wild`, bonus_reveal for `bonus`), driven by the play entry the run's manifest states.

Written from specs/wild_side.md and the style contracts (docs/styles/*.md). Full pools come from the
real pipeline (poolgen.run.build); every illegal layout below starts from a real row. The tests may use
poolgen to build pools; the engines themselves never import it.

Then key_number_match on play entries and tables written by hand (docs/styles/key_number_match.md): the
areas it refuses, the bounds it reads inclusively (256 prize symbols), distinct numbers, null and
out-of-range codes. bonus_reveal alone: test_bonus_reveal.py."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.styles import key_number_match
from audit.styles.interface import Evaluation, Reasons
from audit.styles.play import evaluate
from audit.styles.play import evaluate as evaluate_styles
from audit.styles.play import tier_keys as _tier_keys
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import SPECS
from tests.support.engines import manifest_pool as _manifest_pool
from tests.support.play_entries import KN_AREA, KN_PLAY, edited, kn_table, refusal, win

SEED = bytes(range(32))

# The contracts' code tables, copied here from the docs (not from the engines).
WS_PRIZE = ["FREE", "2", "5", "10", "15", "25", "50", "100", "500", "1000", "25000"]  # wild_side.md sec. 1
WS_VALUE = [500, 200, 500, 1000, 1500, 2500, 5000, 10_000, 50_000, 100_000, 2_500_000]
WS_BONUS_VALUE = {8: 1000, 9: 2500, 10: 5000}  # bonus_reveal.md section 4: 8 pictures, then the WIN$
LUCKY = [f"numbers_win_{j}" for j in range(5)]
YOUR = [f"numbers_your_{j}" for j in range(12)]
YOUR_PRIZE = [f"numbers_prize_{j}" for j in range(12)]
WILD = [f"wild_your_{j}" for j in range(12)]
WILD_PRIZE = [f"wild_prize_{j}" for j in range(12)]
BONUS = [f"bonus_spot_{j}" for j in range(3)]


@pytest.fixture(scope="module")
def ws_game():
    spec = load_spec(SPECS / "wild_side.toml")
    pool = spec.pools[0]
    return spec.play.document(), _manifest_pool(pool), build_pool(spec, pool, SEED)


def ev_of(game, table: pl.DataFrame) -> Evaluation:
    play, pool, _ = game
    return evaluate(table, pool, play)


def _row(table: pl.DataFrame, row: int, **changes: int | str) -> pl.DataFrame:
    one = table.slice(row, 1)
    return one.with_columns(pl.lit(v).cast(one.schema[c]).alias(c) for c, v in changes.items())


def _first(table: pl.DataFrame, tier: str) -> tuple[int, dict]:
    r = int(np.flatnonzero((table["tier"] == tier).to_numpy())[0])
    return r, table.row(r, named=True)


def _not_its_tier(tier: str, wins: int, cents: int) -> str:
    return f"its wins are not its tier {tier!r}'s ({wins} win(s) paying {cents} cents)"


# ---------------------------------------------------------------------------------------------
# (1) Full pools of the real pipeline evaluate to their stored prizes, all legal.


def test_wild_side_full_pool_pays_exactly(ws_game):
    play, pool, table = ws_game
    ev = ev_of(ws_game, table)
    assert ev.prize_cents.dtype == np.int64 and ev.prize_cents.shape == (150_000,)
    assert np.array_equal(ev.prize_cents, table["prize_cents"].to_numpy())
    assert ev.illegal == []
    tiers = table["tier"].to_numpy()
    expected_wins = {t["id"]: len(t["wins"]) for t in play["tiers"]}
    assert expected_wins["t30"] == 21 and expected_wins["lose"] == 0 and len(expected_wins) == 35
    for t in pool["tiers"]:
        rows = tiers == t["id"]
        assert rows.sum() == t["count"] >= 1
        assert set(ev.wins[rows].tolist()) == {expected_wins[t["id"]]}
        assert set(ev.prize_cents[rows].tolist()) == {t["prize_cents"]}


def test_the_play_entry_states_the_spec_tier_for_tier(ws_game):
    """No copied table: the engine compares with the tiers of the manifest's play entry, which are the
    spec's rows (t30: 12 YOUR wins, 6 WILD wins paid 5x, 3 WIN$50)."""
    play, _, _ = ws_game
    t30 = next(t for t in play["tiers"] if t["id"] == "t30")["wins"]
    by = {}
    for w in t30:
        key = (w["area"], w["how"], w["by"], w["prize"])
        by[key] = by.get(key, 0) + 1
    assert by == {("numbers", "match", 1, "25"): 5, ("numbers", "match", 1, "10"): 6,
                  ("numbers", "match", 1, "15"): 1, ("wild", "match", 5, "5"): 6,
                  ("bonus", "reveal", 1, "WIN50"): 3}
    keys, ids = _tier_keys(play, {"numbers": 0, "wild": 1, "bonus": 2}, play["areas"], 27)
    assert keys.shape == (35, 27) and keys.dtype == np.int64 and list(ids)[:2] == ["lose", "t01"]
    assert ((keys >= 0).sum(axis=1)).tolist() == [len(t["wins"]) for t in play["tiers"]]


def test_illegal_rows_are_reported_in_table_order(ws_game):
    _, _, table = ws_game
    loser = np.flatnonzero((table["tier"] == "lose").to_numpy())[[5, 900, 70_000]]
    bonus = table["bonus_spot_2"].to_numpy().copy()
    bonus[loser] = 10
    ev = ev_of(ws_game, table.with_columns(pl.Series("bonus_spot_2", bonus)))
    assert ev.illegal == [(int(r), _not_its_tier("lose", 1, 5000)) for r in loser]
    assert ev.prize_cents[loser].tolist() == [5000] * 3
    assert ev.wins[loser].tolist() == [1] * 3


# ---------------------------------------------------------------------------------------------
# (2) Hand-built illegal layouts.


def test_loser_your_number_matches_a_lucky_number(ws_game):
    _, _, table = ws_game
    r, row = _first(table, "lose")
    ev = ev_of(ws_game, _row(table, r, numbers_your_3=row["numbers_win_2"]))
    p = row["numbers_prize_3"]
    assert ev.prize_cents.tolist() == [WS_VALUE[p]] and ev.wins.tolist() == [1]
    assert ev.illegal == [(0, _not_its_tier("lose", 1, WS_VALUE[p]))]
    # the same in YOUR WILD NUMBERS pays five times the prize
    ev = ev_of(ws_game, _row(table, r, wild_your_7=row["numbers_win_4"], wild_prize_7=3))
    assert ev.prize_cents.tolist() == [5 * 1000]
    assert ev.illegal == [(0, _not_its_tier("lose", 1, 5000))]


def test_number_not_of_the_game(ws_game):
    _, _, table = ws_game
    r, row = _first(table, "lose")
    shown = [row[c] for c in YOUR]
    shown[5] = 46
    ev = ev_of(ws_game, _row(table, r, numbers_your_5=46))
    assert ev.prize_cents.tolist() == [0]
    assert ev.illegal == [(0, "numbers: a your-number code out of range ("
                              + ", ".join(str(v) for v in shown) + ")")]
    lucky = [row[c] for c in LUCKY]
    lucky[3] = 200
    ev = ev_of(ws_game, _row(table, r, numbers_win_3=200))
    assert ev.illegal == [(0, "numbers: a winning number code out of range ("
                              + ", ".join(str(v) for v in lucky) + ")")]


def test_duplicate_lucky_numbers(ws_game):
    _, _, table = ws_game
    r, row = _first(table, "lose")
    ev = ev_of(ws_game, _row(table, r, numbers_win_1=row["numbers_win_0"]))
    assert ev.prize_cents.tolist() == [0]
    assert ev.illegal == [(0, "numbers: two winning numbers are equal")]


def test_more_than_21_wins(ws_game):
    _, _, table = ws_game
    r, row = _first(table, "t30")
    lucky = [row[c] for c in LUCKY]
    wild = [row[c] for c in WILD]
    once = next(x for x in lucky if wild.count(x) == 1)  # so the 7 matches still spread evenly
    spot = next(j for j in range(12) if wild[j] not in lucky)
    ev = ev_of(ws_game, _row(table, r, **{f"wild_your_{spot}": once, f"wild_prize_{spot}": 2}))
    assert ev.prize_cents.tolist() == [50_000 + 5 * 500] and ev.wins.tolist() == [22]
    assert ev.illegal == [(0, "22 wins, at most 21; " + _not_its_tier("t30", 22, 52_500))]


def test_win_symbol_in_a_bonus_spot_of_a_loser(ws_game):
    _, _, table = ws_game
    r, _ = _first(table, "lose")
    for code, value in WS_BONUS_VALUE.items():
        ev = ev_of(ws_game, _row(table, r, bonus_spot_1=code))
        assert ev.prize_cents.tolist() == [value] and ev.wins.tolist() == [1]
        assert ev.illegal == [(0, _not_its_tier("lose", 1, value))]


def test_one_bonus_play_symbol_three_times(ws_game):
    """wild_side.md section 5: the three WILD BONUS spots never show one play symbol three times, a
    match (f) might be read to pay; a WIN$ symbol three times is three paid wins."""
    _, _, table = ws_game
    r, _ = _first(table, "lose")
    for code in (0, 5, 7):
        ev = ev_of(ws_game, _row(table, r, bonus_spot_0=code, bonus_spot_1=code, bonus_spot_2=code))
        assert ev.prize_cents.tolist() == [0]
        assert ev.illegal == [(0, "bonus: one picture shows 3 times (at most 2: more read as a match that "
                                  "wins nothing)")]
    ev = ev_of(ws_game, _row(table, r, bonus_spot_0=5, bonus_spot_1=5, bonus_spot_2=6))
    assert ev.illegal == []
    ev = ev_of(ws_game, _row(table, r, bonus_spot_0=8, bonus_spot_1=8, bonus_spot_2=8))
    assert ev.prize_cents.tolist() == [3000] and ev.illegal == [(0, _not_its_tier("lose", 3, 3000))]


def test_wild_win_on_free(ws_game):
    _, _, table = ws_game
    r, row = _first(table, "t05")
    lucky = {row[c] for c in LUCKY}
    spot = next(j for j in range(12) if row[f"wild_your_{j}"] in lucky)
    ev = ev_of(ws_game, _row(table, r, **{f"wild_prize_{spot}": 0}))
    assert ev.prize_cents.tolist() == [5 * 500]
    assert ev.illegal == [(0, _not_its_tier("t05", 1, 2500))]


def test_numbers_within_an_area(ws_game):
    _, _, table = ws_game
    r, row = _first(table, "lose")
    ev = ev_of(ws_game, _row(table, r, numbers_your_1=row["numbers_your_0"]))
    assert ev.illegal == [(0, "numbers: a YOUR NUMBER that matches nothing shows twice")]
    ev = ev_of(ws_game, _row(table, r, wild_your_11=row["wild_your_10"]))
    assert ev.illegal == [(0, "wild: a YOUR NUMBER that matches nothing shows twice")]
    # Decision (across areas): the same number in both areas is legal.
    ev = ev_of(ws_game, _row(table, r, wild_your_4=row["numbers_your_9"]))
    assert ev.illegal == [] and ev.prize_cents.tolist() == [0]
    # Tier t13: five YOUR wins of $5.00 on the five LUCKY NUMBERS; two on one lucky number is uneven.
    r, row = _first(table, "t13")
    lucky = [row[c] for c in LUCKY]
    matching = [j for j in range(12) if row[f"numbers_your_{j}"] in lucky]
    moved = row[f"numbers_your_{matching[1]}"]
    ev = ev_of(ws_game, _row(table, r, **{f"numbers_your_{matching[0]}": moved}))
    hits = [2 if x == moved else 0 if x == row[f"numbers_your_{matching[0]}"] else 1 for x in lucky]
    assert ev.prize_cents.tolist() == [2500]
    assert ev.illegal == [(0, "numbers: 5 matches use the WINNING NUMBERS unevenly ("
                              + ", ".join(map(str, hits)) + " times)")]


def test_bad_codes_and_unknown_tier(ws_game):
    _, _, table = ws_game
    r, row = _first(table, "lose")
    ev = ev_of(ws_game, _row(table, r, numbers_prize_0=11))
    assert ev.illegal == [(0, "numbers: a prize code out of range ("
                              + ", ".join(str(11 if j == 0 else row[c]) for j, c in enumerate(YOUR_PRIZE))
                              + ")")]
    ev = ev_of(ws_game, _row(table, r, bonus_spot_0=11))
    assert ev.prize_cents.tolist() == [0]
    assert ev.illegal == [(0, f"bonus: a spot code out of range (11, {row['bonus_spot_1']}, "
                              f"{row['bonus_spot_2']})")]
    ev = ev_of(ws_game, _row(table, r, tier="t35"))
    assert ev.illegal == [(0, "tier 't35' is not in the manifest's play entry")]


def test_missing_or_non_integer_columns_are_refused(ws_game):
    _, _, table = ws_game
    with pytest.raises(ValueError, match="bonus_spot_1"):
        ev_of(ws_game, table.head(3).with_columns(pl.col("bonus_spot_1").cast(pl.Float64)))
    with pytest.raises(ValueError, match="wild_prize_5"):
        ev_of(ws_game, table.head(3).drop("wild_prize_5"))


# ---------------------------------------------------------------------------------------------
# (3) Properties: the engines agree with a row-by-row reading of the docs.


def _reference(row: dict) -> tuple[int, int]:
    """key_number_match.md and bonus_reveal.md section 5, for Wild Side's areas, one row at a time."""
    lucky = {row[c] for c in LUCKY}
    prize = wins = 0
    for j in range(12):
        if row[f"numbers_your_{j}"] in lucky:
            prize, wins = prize + WS_VALUE[row[f"numbers_prize_{j}"]], wins + 1
        if row[f"wild_your_{j}"] in lucky:
            prize, wins = prize + 5 * WS_VALUE[row[f"wild_prize_{j}"]], wins + 1
    for c in BONUS:
        if row[c] >= 8:
            prize, wins = prize + WS_BONUS_VALUE[row[c]], wins + 1
    return prize, wins


_numbers = st.integers(0, 11)  # a few numbers, so that matches are frequent
_ws_row = st.fixed_dictionaries(
    {c: st.integers(0, 45) for c in LUCKY} | {c: _numbers for c in YOUR + WILD}
    | {c: st.integers(0, 10) for c in YOUR_PRIZE + WILD_PRIZE + BONUS})


@settings(max_examples=60, deadline=None)
@given(st.lists(_ws_row, min_size=1, max_size=40))
def test_matches_a_row_by_row_reading(ws_game, rows):
    table = pl.DataFrame(rows, schema={c: pl.UInt8 for c in rows[0]}).with_columns(tier=pl.lit("lose"))
    ev = ev_of(ws_game, table)
    want = [_reference(row) for row in rows]
    assert ev.prize_cents.tolist() == [p for p, _ in want]
    assert ev.wins.tolist() == [w for _, w in want]
    flagged = {r for r, _ in ev.illegal}
    for i, (row, (_, wins)) in enumerate(zip(rows, want, strict=True)):
        lucky = [row[c] for c in LUCKY]
        three = row["bonus_spot_0"] == row["bonus_spot_1"] == row["bonus_spot_2"]
        if len(set(lucky)) < 5 or wins > 0 or three:
            assert i in flagged  # a repeat, a win on a loser, three alike
    assert flagged <= set(range(len(rows)))


@settings(max_examples=20, deadline=None)
@given(st.permutations(range(12)), st.permutations(range(5)), st.integers(0, 149_000))
def test_spot_order_does_not_matter(ws_game, order, lucky_order, start):
    """Moving a number together with its prize symbol, or reordering the LUCKY NUMBERS, changes nothing."""
    _, _, table = ws_game
    part = table.slice(start, 1000)
    moved = part.with_columns(
        [pl.col(f"{area}_your_{order[j]}").alias(f"{area}_your_{j}") for area in ("numbers", "wild")
         for j in range(12)]
        + [pl.col(f"{area}_prize_{order[j]}").alias(f"{area}_prize_{j}")
           for area in ("numbers", "wild") for j in range(12)]
        + [pl.col(LUCKY[lucky_order[j]]).alias(LUCKY[j]) for j in range(5)])
    a, b = ev_of(ws_game, part), ev_of(ws_game, moved)
    assert np.array_equal(a.prize_cents, b.prize_cents) and np.array_equal(a.wins, b.wins)
    assert np.array_equal(a.prize_cents, part["prize_cents"].to_numpy())
    assert a.illegal == b.illegal == []


# ---------------------------------------------------------------------------------------------
# (4) key_number_match on play entries and tables written by hand.


def test_key_number_match_refuses_a_list_that_is_not_one():
    play = edited(lambda p: p["areas"][0].update(numbers="123456"))
    assert refusal(play) == "manifest play entry: area 'play': numbers is not a list"


@pytest.mark.parametrize("value", [-1, True, "2"])
def test_key_number_match_refuses_a_count_that_is_not_a_whole_number(value):
    play = edited(lambda p: p["areas"][0].update(winning=value))  # 0: a key symbol game (test_key_symbol.py)
    assert refusal(play) == "manifest play entry: area 'play': winning is not a whole number >= 0"


def test_key_number_match_refuses_distinct_numbers_that_is_not_a_boolean():
    play = edited(lambda p: p["areas"][0].update(distinct_numbers="yes"))
    assert refusal(play) == "manifest play entry: area 'play': distinct_numbers is not true or false"


def test_distinct_numbers_lets_a_special_symbol_show_twice():
    """Section 8.1 speaks of YOUR NUMBERS: two automatic-win symbols are not a repeated number (and
    two equal numbers that match nothing are)."""
    area = KN_AREA | {"distinct_numbers": True}
    reasons = Reasons()
    key_number_match.evaluate(kn_table([0, 1], [6, 6, 2], [1, 1, 1]), area, reasons)
    assert reasons.illegal() == []
    key_number_match.evaluate(kn_table([0, 1], [2, 2, 3], [1, 1, 1]), area, reasons)
    assert reasons.illegal() == [(0, "play: a YOUR NUMBER that matches nothing shows twice")]


def test_a_null_code_is_shown_as_null():
    result = evaluate(kn_table([0, 1], [None, 3, 4], [1, 1, 1]), {"id": "p1"}, KN_PLAY)
    assert result.illegal == [(0, "play: a your-number code out of range (null, 3, 4)")]


def test_key_number_match_reads_256_prize_symbols_and_refuses_257():
    prizes = [{"code": str(k), "cents": 100 * (k + 1)} for k in range(257)]
    reasons = Reasons()
    table = kn_table([0, 1], [1, 3, 4], [255, 0, 0])
    slots = key_number_match.evaluate(table, KN_AREA | {"prizes": prizes[:256]}, reasons)
    assert reasons.illegal() == [] and [bool(s.won[0]) for s in slots] == [True, False, False]
    assert (slots[0].cents.tolist(), slots[0].prize.tolist()) == ([25600], [255])
    with pytest.raises(ValueError) as exc:
        key_number_match.evaluate(kn_table([0, 1], [1, 3, 4], [0, 0, 0]), KN_AREA | {"prizes": prizes},
                                  Reasons())
    assert str(exc.value) == "manifest play entry: area 'play': more than 256 prize symbols"


def test_key_number_match_refuses_an_area_without_prize_symbols():
    with pytest.raises(ValueError) as exc:
        key_number_match.evaluate(kn_table([0, 1], [1, 3, 4], [0, 0, 0]), KN_AREA | {"prizes": []}, Reasons())
    assert str(exc.value) == "manifest play entry: area 'play': no prize symbols"


@pytest.mark.parametrize("shown", [3, None], ids=["past the prizes", "null"])
def test_key_number_match_a_prize_code_out_of_range_wins_nothing(shown):
    """Section 5: a spot whose prize code is out of range wins nothing, though its number matches (it
    was read on the last prize, or a null on the first, FREE: a win of an amount the row does not show)."""
    tier = {"id": "5", "wins": [{"area": "play", "how": "match", "by": 1, "prize": "5", "prize_cents": 500}]}
    play = {**KN_PLAY, "tiers": [*KN_PLAY["tiers"], tier]}
    out = evaluate(kn_table([0, 1], [1, 3, 4], [shown, 1, 1], tier="5"), {"id": "p1"}, play)
    listed = "null" if shown is None else str(shown)
    assert out.illegal == [(0, f"play: a prize code out of range ({listed}, 1, 1); "
                               + _not_its_tier("5", 0, 0))]
    assert (out.prize_cents.tolist(), out.wins.tolist()) == ([0], [0])


@pytest.mark.parametrize("lucky", [6, None], ids=["past the numbers", "null"])
def test_key_number_match_no_your_number_matches_beside_a_winning_number_out_of_range(lucky):
    """Section 5: a YOUR NUMBER matches only while every WINNING NUMBER is in range, a null as much as a
    code past the numbers (a null let the other WINNING NUMBER's match count), in an area with
    `winning_from` as in the area that shows them."""
    wild = KN_AREA | {"id": "wild", "winning_from": "play", "match_by": 5}
    wild_tier = {"id": "w", "wins": [win("wild", "1", 100, by=5)]}
    play = {**KN_PLAY, "areas": [KN_AREA, wild], "tiers": [*KN_PLAY["tiers"], wild_tier]}
    rows = [("1", [1, 3, 4], [2, 3, 4]), ("w", [2, 3, 4], [1, 3, 4])]  # row 0 matches in play, 1 in wild
    table = pl.DataFrame([{"tier": t, "play_win_0": lucky, "play_win_1": 1}
                          | {f"{a}_your_{j}": y[j] for a, y in (("play", p), ("wild", w)) for j in range(3)}
                          | {f"{a}_prize_{j}": 1 for a in ("play", "wild") for j in range(3)}
                          for t, p, w in rows]).with_columns(pl.exclude("tier").cast(pl.UInt8))
    out = evaluate(table, {"id": "p1"}, play)
    listed = "null" if lucky is None else str(lucky)
    bad = f"play: a winning number code out of range ({listed}, 1)"
    assert out.illegal == [(0, f"{bad}; " + _not_its_tier("1", 0, 0)),
                           (1, f"{bad}; " + _not_its_tier("w", 0, 0))]
    assert (out.prize_cents.tolist(), out.wins.tolist()) == ([0, 0], [0, 0])


def test_key_number_match_rules_5_and_6_read_matches_as_section_5_does():
    """With a WINNING NUMBER out of range nothing matches: two equal YOUR NUMBERS equal to the other one
    are numbers that match nothing shown twice (rule 6), not two matches used unevenly (rule 5)."""
    area = KN_AREA | {"distinct_numbers": True}
    reasons = Reasons()
    key_number_match.evaluate(kn_table([6, 1], [1, 1, 3], [1, 1, 1]), area, reasons)
    assert reasons.illegal() == [(0, "play: a winning number code out of range (6, 1); "
                                     "play: a YOUR NUMBER that matches nothing shows twice")]


def test_key_number_match_rule_5_counts_the_your_numbers_that_match_once_each():
    """Section 8.1's k is the number of YOUR NUMBERS that match: two equal WINNING NUMBERS do not count a
    match twice (it was the sum of the times each WINNING NUMBER is used, 4 here, so 2 and 2 looked even)."""
    reasons = Reasons()
    key_number_match.evaluate(kn_table([0, 0], [0, 0, 3], [1, 1, 1]), KN_AREA | {"distinct_numbers": True},
                              reasons)
    assert reasons.illegal() == [(0, "play: two winning numbers are equal; "
                                     "play: 2 matches use the WINNING NUMBERS unevenly (2, 2 times)")]


def test_key_number_match_without_distinct_numbers_your_numbers_may_repeat():
    area = {"id": "k", "style": "key_number_match", "winning": 2, "yours": 4, "numbers": list("123456"),
            "prizes": [{"code": "1", "cents": 100}], "specials": [], "match_by": 1}
    play = {"max_wins": 4, "areas": [area], "tiers": [{"id": "lose", "wins": []},
                                                       {"id": "2", "wins": [win("k", "1", 100)] * 2}]}
    rows = [{"tier": t, "k_win_0": 0, "k_win_1": 1} | {f"k_your_{j}": y for j, y in enumerate(yours)}
            | {f"k_prize_{j}": 0 for j in range(4)}
            for t, yours in (("lose", [3, 3, 3, 2]), ("2", [0, 0, 3, 3]))]
    table = pl.DataFrame(rows).with_columns(pl.exclude("tier").cast(pl.UInt8))
    result = evaluate_styles(table, {"id": "p1"}, play)
    assert result.illegal == [] and result.prize_cents.tolist() == [0, 200]
    spread = evaluate_styles(table, {"id": "p1"}, {**play, "areas": [{**area, "distinct_numbers": True}]})
    assert spread.illegal == [(0, "k: a YOUR NUMBER that matches nothing shows twice"),
                              (1, "k: 2 matches use the WINNING NUMBERS unevenly (2, 0 times); "
                                  "k: a YOUR NUMBER that matches nothing shows twice")]
