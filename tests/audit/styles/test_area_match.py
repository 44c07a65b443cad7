"""The auditor's engine of the area_match eInstant style (audit/styles/area_match.py), on Primetime
Payout's parameters (the manifest's play entry) and on others.

It is written from docs/styles/area_match.md only. Here it is held against the real pipeline (full
pools and reduced pools of every denomination and play-area count), against hand-broken layouts (real
rows with one rule broken, exact reasons and prizes), against a plain per-row transcription of the
contract's evaluation section (hypothesis), and against play entries it must refuse. Play entries
and one-row tables written by hand, word for word: test_area_match_edge_cases.py.
"""

from __future__ import annotations

import copy
import tomllib
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.styles import area_match as ptp
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import SEED_A, spec_path
from tests.support.engines import assert_pays_exactly, pool_entry, reduced, set_cell, set_cells

FIELD_GOAL_GRID = [1, 2, 3, 4, 2, 1]
PLAY = load_spec(spec_path("primetime_payout")).play.document()


def _rows_where(mask: pl.Series) -> list[int]:
    return np.flatnonzero(mask.to_numpy()).tolist()


# ------------------------------------------------------------------------------------------------
# Primetime Payout's parameters
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ptp_spec():
    return load_spec(spec_path("primetime_payout"))


@pytest.fixture(scope="module")
def ptp_full(ptp_spec):
    p = ptp_spec.pool("d2.00x3")
    return build_pool(ptp_spec, p, SEED_A), pool_entry(p)


def ptp_area_win(symbols: list[int], amount: int, prizes: int) -> int:
    """Section 4 of area_match.md with Primetime Payout's parameters, transcribed for one area."""
    coins = symbols.count(12)
    best = max([symbols.count(c) for c in (1, 2, 3, 4, 5, 6, 7, 8, 13)])
    match = coins + best
    trigger = 9 in symbols and (10 in symbols or 11 in symbols)
    if match == 4:
        return 2 * amount
    if match == 3:
        return amount
    return prizes * amount if trigger else 0


def ptp_areas(values: dict, areas: int) -> list[tuple[list[int], int, int, int, int]]:
    return [([values[f"a{i}_s{j}"] for j in range(4)], values[f"a{i}_amount"], values[f"a{i}_bonus"],
             values[f"a{i}_bonus_result"], values[f"a{i}_bonus_prizes"]) for i in range(areas)]


def ptp_row(areas: list[tuple], prize: int, tier: str | None = None) -> pl.DataFrame:
    """One row from (symbols, amount, bonus, result, prizes) per area."""
    data: dict[str, pl.Series] = {
        "tier": pl.Series([tier or ("lose" if prize == 0 else "m")]),
        "prize_cents": pl.Series([prize], dtype=pl.Int64),
    }
    for i, (symbols, amount, bonus, result, prizes) in enumerate(areas):
        data.update({f"a{i}_s{j}": pl.Series([s], dtype=pl.UInt8) for j, s in enumerate(symbols)})
        data[f"a{i}_amount"] = pl.Series([amount], dtype=pl.Int64)
        data[f"a{i}_bonus"] = pl.Series([bonus], dtype=pl.UInt8)
        data[f"a{i}_bonus_result"] = pl.Series([result], dtype=pl.UInt8)
        data[f"a{i}_bonus_prizes"] = pl.Series([prizes], dtype=pl.UInt8)
    return pl.DataFrame(data)


def d200(areas: int) -> dict:
    return {"id": f"d2.00x{areas}", "price_cents": 200 * areas, "denomination_cents": 200,
            "play_areas": areas}


def test_ptp_full_pool_pays_exactly(ptp_full):
    table, pool = ptp_full
    assert table.height == 1_000_000 and pool["play_areas"] == 3
    result = ptp.evaluate(table, pool, PLAY)
    assert_pays_exactly(table, result)
    assert set(result.wins.tolist()) == {0, 1, 2, 3}
    assert {c: table.schema[c] for c in ptp.layout_columns(pool, PLAY)} == ptp.layout_columns(pool, PLAY)


def test_ptp_triple_in_a_losing_share(ptp_full):
    table, pool = ptp_full
    row = _rows_where(table["tier"] == "lose")[0]
    amount = table["a1_amount"][row]
    wins = ["0", str(amount), "0"]
    broken = set_cells(table.slice(row, 1), 0, {"a1_s0": 3, "a1_s1": 12, "a1_s2": 3, "a1_s3": 5})
    result = ptp.evaluate(broken, pool, PLAY)
    pays = f"{' + '.join(wins)} = {amount}"
    assert result.illegal == [(0, f"areas pay {pays} cents, prize_cents is 0; tier 'lose' but the areas pay "
                                  f"{pays} cents")]
    assert result.prize_cents.tolist() == [amount] and result.wins.tolist() == [1]


def test_ptp_triple_in_a_losing_area_of_a_winning_share(ptp_full):
    table, pool = ptp_full
    for row in _rows_where(table["prize_cents"] > 0):
        values = table.row(row, named=True)
        areas = ptp_areas(values, 3)
        wins = [ptp_area_win(s, a, n) for s, a, _, _, n in areas]
        if 0 in wins:
            break
    i = wins.index(0)
    # three Jackpot Coins and a Clipboard (not a Coin nor a fourth Jackpot Coin: a 3-match)
    broken = set_cells(table, row, {**{f"a{i}_s{j}": 13 for j in range(3)}, f"a{i}_s3": 1})
    wins[i] = areas[i][1]
    result = ptp.evaluate(broken, pool, PLAY)
    pays = f"{' + '.join(map(str, wins))} = {sum(wins)}"
    assert result.illegal == [(row, f"areas pay {pays} cents, prize_cents is {values['prize_cents']}")]
    assert result.prize_cents[row] == values["prize_cents"] + areas[i][1]


def _no_bonus_symbol(table: pl.DataFrame, areas: range) -> pl.Series:
    return pl.all_horizontal(~pl.col(f"a{i}_s{j}").is_in([9, 10, 11]) for i in areas for j in range(4))


def test_ptp_touchdown_trigger_in_a_losing_area(ptp_full):
    table, pool = ptp_full
    # a loser whose areas 0 and 1 show no bonus symbol, so that the trigger breaks no other rule
    plain = table.select(_no_bonus_symbol(table, range(2))).to_series()
    row = _rows_where((table["tier"] == "lose") & plain)[0]
    broken = set_cells(table.slice(row, 1), 0, {"a2_s0": 9, "a2_s1": 1, "a2_s2": 10, "a2_s3": 2})
    result = ptp.evaluate(broken, pool, PLAY)
    assert result.illegal == [(0, "area 2: a2_bonus is 0 but its symbols trigger Touchdown (1)")]
    assert result.prize_cents.tolist() == [0]  # N = a2_bonus_prizes = 0
    # ... and with the bonus columns made consistent, the area pays and the share no longer adds up
    amount = table["a2_amount"][row]
    broken = set_cells(broken, 0, {"a2_bonus": 1, "a2_bonus_result": 0b0110, "a2_bonus_prizes": 2})
    result = ptp.evaluate(broken, pool, PLAY)
    pays = f"0 + 0 + {2 * amount} = {2 * amount}"
    assert result.illegal == [(0, f"areas pay {pays} cents, prize_cents is 0; tier 'lose' but the areas pay "
                                  f"{pays} cents")]


@pytest.mark.parametrize(("bonus", "name"), [(1, "Touchdown"), (2, "Field Goal")])
def test_ptp_bonus_with_zero_prizes(ptp_full, bonus, name):
    table, pool = ptp_full
    row, i = next((r, i) for i in range(3) for r in _rows_where(table[f"a{i}_bonus"] == bonus)[:1])
    values = table.row(row, named=True)
    areas = ptp_areas(values, 3)
    wins = [ptp_area_win(s, a, n) for s, a, _, _, n in areas]
    assert sum(wins) == values["prize_cents"] and wins[i] == areas[i][1] * areas[i][4] > 0
    wins[i] = 0
    result = ptp.evaluate(set_cell(table.slice(row, 1), 0, f"a{i}_bonus_prizes", 0), pool, PLAY)
    pays = f"{' + '.join(map(str, wins))} = {sum(wins)}"
    reasons = [f"area {i}: {name} bonus with 0 prizes",
               f"areas pay {pays} cents, prize_cents is {values['prize_cents']}"]
    if sum(wins) == 0:
        reasons.append(f"tier {values['tier']!r} but the areas pay {pays} cents")
    assert result.illegal == [(0, "; ".join(reasons))]
    assert result.prize_cents.tolist() == [sum(wins)]


A = 400  # an area amount (2 x D for D = $2.00)


@pytest.mark.parametrize(("symbols", "bonus", "result", "prizes", "times"), [
    ([1, 1, 1, 2], 0, 0, 0, 1),           # three of a kind
    ([5, 5, 5, 5], 0, 0, 0, 2),           # four of a kind
    ([13, 13, 12, 4], 0, 0, 0, 1),        # Jackpot Coins completed by a Coin
    ([12, 12, 12, 3], 0, 0, 0, 2),        # three Coins and a symbol: four matching
    ([12, 12, 12, 9], 0, 0, 0, 1),        # three Coins match each other, not the Golden Football
    ([12, 12, 12, 12], 0, 0, 0, 2),
    ([9, 12, 12, 3], 0, 0, 0, 1),         # Coins complete the Whistle, not the Golden Football
    ([9, 9, 12, 3], 0, 0, 0, 0),          # the Coin is not wild for the Golden Football
    ([10, 10, 12, 11], 0, 0, 0, 0),       # nor for the Touchdown or Field Goal
    ([1, 2, 3, 4], 0, 0, 0, 0),
    ([9, 10, 12, 12], 1, 0b1011, 3, 3),   # Touchdown, three chances score
    ([10, 3, 9, 3], 1, 0b0001, 1, 1),
    ([9, 11, 3, 3], 2, 3, 4, 4),          # Field Goal, section 3 (4 prizes)
    ([11, 9, 12, 1], 2, 5, 1, 1),
    ([9, 9, 12, 3], 0, 0, 0, 0),          # two Golden Footballs and no Touchdown: no bonus
])
def test_ptp_area_rules(symbols, bonus, result, prizes, times):
    losing = ([1, 2, 3, 4], 200, 0, 0, 0)
    table = ptp_row([losing, (symbols, A, bonus, result, prizes)], prize=times * A)
    out = ptp.evaluate(table, d200(2), PLAY)
    assert out.illegal == []
    assert out.prize_cents.tolist() == [times * A] and out.wins.tolist() == [int(times > 0)]


@pytest.mark.parametrize(("area", "prize", "reason"), [
    (([0, 1, 1, 1], A, 0, 0, 0), A, "a0_s0 has code 0, not a symbol code 1..13"),
    (([14, 2, 3, 4], A, 0, 0, 0), 0, "a0_s0 has code 14, not a symbol code 1..13"),
    (([9, 10, 11, 1], A, 1, 1, 1), A, "area 0: GFOOT with the symbols of 2 bonus games"),
    (([9, 11, 2, 3], A, 1, 1, 1), A, "area 0: a0_bonus is 1 but its symbols trigger Field Goal (2)"),
    (([1, 2, 3, 4], A, 0, 3, 0), 0, "area 0: no bonus but a0_bonus_result 3, a0_bonus_prizes 0"),
    (([1, 2, 3, 4], A, 0, 0, 2), 0, "area 0: no bonus but a0_bonus_result 0, a0_bonus_prizes 2"),
    (([9, 10, 2, 3], A, 1, 0, 1), A, "area 0: Touchdown a0_bonus_result 0 not a scoring mask 1..15"),
    (([9, 10, 2, 3], A, 1, 16, 1), A, "area 0: Touchdown a0_bonus_result 16 not a scoring mask 1..15"),
    (([9, 10, 2, 3], A, 1, 0b0111, 2), 2 * A, "area 0: Touchdown mask 7 scores 3, a0_bonus_prizes is 2"),
    (([9, 11, 2, 3], A, 2, 6, 1), A, "area 0: Field Goal a0_bonus_result 6 not a grid section 0..5"),
    (([9, 11, 2, 3], A, 2, 2, 2), 2 * A, "area 0: Field Goal section 2 wins 3, a0_bonus_prizes is 2"),
    (([1, 2, 3, 4], 0, 0, 0, 0), 0, "area 0: a0_amount 0 not > 0"),
    (([1, 2, 3, 4], -200, 0, 0, 0), 0, "area 0: a0_amount -200 not > 0"),
    (([1, 2, 3, 4], 150, 0, 0, 0), 0, "area 0: a0_amount 150 is not an amount multiplier x 200"),
    (([1, 2, 3, 4], 200 * 11, 0, 0, 0), 0, "area 0: a0_amount 2200 is not an amount multiplier x 200"),
])
def test_ptp_illegal_areas(area, prize, reason):
    out = ptp.evaluate(ptp_row([area], prize=prize), d200(1), PLAY)
    assert out.illegal == [(0, reason)]
    assert out.prize_cents.tolist() == [prize]


L = ([1, 2, 3, 4], A, 0, 0, 0)  # a losing area without bonus symbols


@pytest.mark.parametrize(("areas", "prize", "reason"), [
    # rule 10: three matching symbols that win nothing
    ([([9, 9, 9, 1], A, 0, 0, 0)], 0, "area 0: 3 GFOOT symbols match and win nothing"),
    ([([6, 10, 10, 10], A, 0, 0, 0)], 0, "area 0: 3 TD symbols match and win nothing"),
    ([([11, 11, 12, 11], A, 0, 0, 0)], 0, "area 0: 3 FG symbols match and win nothing"),
    ([([11, 11, 11, 11], A, 0, 0, 0)], 0, "area 0: 4 FG symbols match and win nothing"),
    ([L, ([9, 10, 10, 10], A, 1, 1, 1)], A, "area 1: 3 TD symbols match and win nothing"),
    # rule 10: a bonus trigger shows one Golden Football and one Touchdown / Field Goal
    ([([9, 9, 10, 1], A, 1, 1, 1)], A, "area 0: a bonus trigger with 2 GFOOT symbols"),
    ([([9, 11, 3, 11], A, 2, 0, 1)], A, "area 0: a bonus trigger with 2 FG symbols"),
    # rule 11: a Golden Football in one area, a Touchdown or Field Goal in another
    ([([9, 1, 2, 3], A, 0, 0, 0), ([10, 1, 2, 3], A, 0, 0, 0)], 0,
     "GFOOT in area 0 and TD in area 1"),
    ([L, ([4, 11, 5, 6], A, 0, 0, 0), L, ([7, 8, 9, 1], A, 0, 0, 0)], 0,
     "GFOOT in area 3 and FG in area 1"),
    # area 0 plays a Touchdown bonus, area 2 shows a lone Golden Football: it pairs with area 0's TD
    ([([9, 10, 1, 2], A, 1, 1, 1), L, ([9, 3, 4, 5], A, 0, 0, 0)], A,
     "GFOOT in area 2 and TD in area 0"),
    # two bonus areas: each one's Golden Football pairs with the other's Touchdown / Field Goal
    ([([9, 10, 1, 2], A, 1, 1, 1), ([11, 9, 1, 2], A, 2, 0, 1)], 2 * A,
     "GFOOT in area 0 and FG in area 1; GFOOT in area 1 and TD in area 0"),
    # a winning 3-match whose fourth symbol pairs with another area's Golden Football
    ([([1, 1, 1, 10], A, 0, 0, 0), ([9, 2, 3, 4], A, 0, 0, 0)], A,
     "GFOOT in area 1 and TD in area 0"),
])
def test_ptp_displays_never_shown(areas, prize, reason):
    """Section 5, rules 10 and 11: displays a plain reading of (f) takes for a win not paid."""
    out = ptp.evaluate(ptp_row(areas, prize=prize), d200(len(areas)), PLAY)
    assert out.illegal == [(0, reason)]
    assert out.prize_cents.tolist() == [prize]


def test_ptp_displays_allowed():
    """What rules 10 and 11 leave alone: two of a bonus symbol outside a trigger, Golden Footballs
    without any Touchdown or Field Goal in the share, Touchdowns and Field Goals without a Golden Football."""
    for areas in ([([9, 9, 1, 2], A, 0, 0, 0), ([9, 3, 4, 5], A, 0, 0, 0)],
                  [([10, 10, 1, 2], A, 0, 0, 0), ([11, 11, 3, 4], A, 0, 0, 0), ([10, 11, 5, 6], A, 0, 0, 0)],
                  [([9, 10, 1, 2], A, 1, 3, 2), L]):
        prize = sum(ptp_area_win(s, a, n) for s, a, _, _, n in areas)
        out = ptp.evaluate(ptp_row(areas, prize=prize), d200(len(areas)), PLAY)
        assert out.illegal == [], areas


def test_ptp_exact_multi_rule_reasons():
    # a bonus column without its symbols: rule 3, and the area pays nothing
    out = ptp.evaluate(ptp_row([([9, 1, 2, 3], A, 1, 1, 1)], prize=0), d200(1), PLAY)
    assert out.illegal == [(0, "area 0: a0_bonus is 1 but its symbols trigger no bonus (0)")]
    # two areas breaking rules: area by area, then the share
    areas = [([9, 11, 2, 3], A, 2, 2, 2), ([7, 7, 12, 1], 150, 0, 0, 0)]
    out = ptp.evaluate(ptp_row(areas, prize=0), d200(2), PLAY)
    assert out.illegal == [(0, "area 0: Field Goal section 2 wins 3, a0_bonus_prizes is 2; "
                               "area 1: a1_amount 150 is not an amount multiplier x 200; "
                               "areas pay 800 + 150 = 950 cents, prize_cents is 0; "
                               "tier 'lose' but the areas pay 800 + 150 = 950 cents")]
    assert out.prize_cents.tolist() == [950] and out.wins.tolist() == [2]


def test_ptp_amounts_follow_the_denomination():
    area = ([1, 1, 1, 2], 375, 0, 0, 0)  # 0.5 x $7.50
    pool = {"id": "d7.50x1", "price_cents": 750, "denomination_cents": 750, "play_areas": 1}
    assert ptp.evaluate(ptp_row([area], prize=375), pool, PLAY).illegal == []
    assert ptp.evaluate(ptp_row([area], prize=375), d200(1), PLAY).illegal == [
        (0, "area 0: a0_amount 375 is not an amount multiplier x 200")]
    for x, legal in ((2500, True), (3000, False), (5000, True)):
        out = ptp.evaluate(ptp_row([([1, 1, 1, 2], x * 200, 0, 0, 0)], prize=x * 200), d200(1),
                           PLAY)
        assert out.illegal == ([] if legal else [(0, f"area 0: a0_amount {x * 200} is not an amount "
                                                     "multiplier x 200")])


def test_ptp_malformed_pool_or_table():
    table = ptp_row([([1, 2, 3, 4], A, 0, 0, 0), ([1, 2, 3, 4], A, 0, 0, 0)], prize=0)
    with pytest.raises(ValueError, match=r"has 1 play areas of 4 spots but the table has columns \['a1_s0'"):
        ptp.evaluate(table, d200(1), PLAY)
    with pytest.raises(ValueError, match="layout column 'a2_s0' missing"):
        ptp.evaluate(table, d200(3), PLAY)
    with pytest.raises(ValueError, match="price_cents 300 != denomination_cents 200 x play_areas 2"):
        ptp.evaluate(table, {**d200(2), "price_cents": 300}, PLAY)


ptp_symbols = st.lists(st.one_of(st.integers(1, 13), st.sampled_from([9, 10, 11, 12])),
                       min_size=4, max_size=4)
ptp_area = st.tuples(ptp_symbols, st.sampled_from([100, 200, 700, 1_000_000, 150]),
                     st.integers(0, 2), st.integers(0, 16), st.integers(0, 4))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4).flatmap(lambda k: st.lists(st.lists(ptp_area, min_size=k, max_size=k),
                                                     min_size=1, max_size=30)))
def test_ptp_matches_the_contract_reference(rows):
    k = len(rows[0])
    tables = [ptp_row(areas, prize=0) for areas in rows]
    result = ptp.evaluate(pl.concat(tables).drop("prize_cents", "tier"), d200(k), PLAY)
    legal_amounts = {int(Fraction(x) * 200) for x in tomllib.loads(
        spec_path("primetime_payout").read_text())["layout"]["amount_multipliers"]}
    for r, areas in enumerate(rows):
        wins = [ptp_area_win(s, a, n) for s, a, _, _, n in areas]
        assert result.prize_cents[r] == sum(wins) and result.wins[r] == sum(w > 0 for w in wins)
        legal = True
        for symbols, amount, bonus, res, prizes in areas:
            trigger = 1 if 9 in symbols and 10 in symbols else 2 if 9 in symbols and 11 in symbols else 0
            legal &= not {9, 10, 11} <= set(symbols) and bonus == trigger and amount in legal_amounts
            legal &= bonus != 0 or (res == 0 and prizes == 0)
            legal &= bonus != 1 or (1 <= res <= 15 and prizes == bin(res).count("1"))
            legal &= bonus != 2 or (res <= 5 and prizes == FIELD_GOAL_GRID[res])
            legal &= max(symbols.count(c) for c in (9, 10, 11)) <= 2  # rule 10
            legal &= not trigger or max(symbols.count(c) for c in (9, 10, 11)) == 1
        for i, (si, *_) in enumerate(areas):  # rule 11
            for j, (sj, *_) in enumerate(areas):
                legal &= i == j or not (9 in si and (10 in sj or 11 in sj))
        assert (r not in dict(result.illegal)) == legal


POOL_IDS = [f"d{d}x{k}" for d in ("1.00", "2.00", "5.00", "7.50") for k in (1, 2, 3, 4)]


@pytest.mark.parametrize("pool_id", POOL_IDS)
def test_ptp_reduced_pools_every_denomination_and_area_count(ptp_spec, pool_id):
    p = reduced(ptp_spec.pool(pool_id))
    table = build_pool(ptp_spec, p, SEED_A)
    result = ptp.evaluate(table, pool_entry(p), PLAY)
    assert_pays_exactly(table, result)
    assert set(table["prize_cents"].to_list()) == {t.prize_cents for t in p.tiers}
    columns = ptp.layout_columns(pool_entry(p), PLAY)
    assert {c: table.schema[c] for c in columns} == columns
    assert sum(c.startswith("a") and c[1].isdigit() for c in table.columns) == 8 * p.play_areas


# ------------------------------------------------------------------------------------------------
# Every parameter is the play entry's
# ------------------------------------------------------------------------------------------------

def edited_play(**changes) -> dict:
    play = copy.deepcopy(PLAY)
    play.update(changes)
    return play


def test_the_play_entry_states_primetime_payout():
    assert {
        "style": "area_match", "spots": 4,
        "symbols": ["CLIP", "FINGER", "WHISTLE", "BOTTLE", "TEE", "SHOE", "BLUEJ", "WHITEJ", "GFOOT", "TD",
                    "FG", "COIN", "JCOIN"],
        "wild": 12, "bonus_key": 9,
        "match_pays": [{"count": 3, "times": 1}, {"count": 4, "times": 2}],
        "bonus_games": [{"code": 1, "name": "Touchdown", "symbol": 10, "chances": 4},
                        {"code": 2, "name": "Field Goal", "symbol": 11, "grid": FIELD_GOAL_GRID}],
        "amount_multipliers": tomllib.loads(spec_path("primetime_payout").read_text())["layout"][
            "amount_multipliers"],
    } == PLAY


def test_an_added_amount_is_read_from_the_play_entry():
    """Issue 13's probe: an amount added to the spec is legal because the play entry says so (no
    copied table of amounts)."""
    area = ([1, 1, 1, 2], 3000 * 200, 0, 0, 0)
    assert ptp.evaluate(ptp_row([area], prize=3000 * 200), d200(1), PLAY).illegal == [
        (0, "area 0: a0_amount 600000 is not an amount multiplier x 200")]
    play = edited_play(amount_multipliers=[*PLAY["amount_multipliers"], "3000"])
    assert ptp.evaluate(ptp_row([area], prize=3000 * 200), d200(1), play).illegal == []


def test_other_parameters_change_the_evaluation():
    # a Field Goal grid of three sections, section 2 now wins 4 prizes
    play = edited_play(bonus_games=[PLAY["bonus_games"][0], {**PLAY["bonus_games"][1], "grid": [1, 2, 4]}])
    out = ptp.evaluate(ptp_row([([9, 11, 2, 3], A, 2, 2, 4)], prize=4 * A), d200(1), play)
    assert out.illegal == [] and out.prize_cents.tolist() == [4 * A]
    out = ptp.evaluate(ptp_row([([9, 11, 2, 3], A, 2, 5, 1)], prize=A), d200(1), play)
    assert out.illegal == [(0, "area 0: Field Goal a0_bonus_result 5 not a grid section 0..2")]
    # four like symbols paying 5 times; the Jackpot Coin as the wild (the Coin a plain symbol)
    play = edited_play(match_pays=[{"count": 3, "times": 1}, {"count": 4, "times": 5}], wild=13)
    out = ptp.evaluate(ptp_row([([12, 12, 13, 12], A, 0, 0, 0)], prize=5 * A), d200(1), play)
    assert out.illegal == [] and out.prize_cents.tolist() == [5 * A]
    # a Touchdown game of two chances
    play = edited_play(bonus_games=[{**PLAY["bonus_games"][0], "chances": 2}, PLAY["bonus_games"][1]])
    out = ptp.evaluate(ptp_row([([9, 10, 2, 3], A, 1, 4, 1)], prize=A), d200(1), play)
    assert out.illegal == [(0, "area 0: Touchdown a0_bonus_result 4 not a scoring mask 1..3")]


@pytest.mark.parametrize(("changes", "message"), [
    ({"style": "match_n"}, "style is 'match_n', not 'area_match'"),
    ({"symbols": []}, "symbols must list 1 to 255 symbol names"),
    ({"spots": 0}, "spots must be a whole number 1..16, not 0"),
    ({"wild": 14}, "wild must be a whole number 1..13, not 14"),
    ({"bonus_key": True}, "bonus_key must be a whole number 1..13, not True"),
    ({"match_pays": [{"count": 4, "times": 2}, {"count": 3, "times": 1}]},
     "match_pays counts must be ascending and distinct"),
    ({"match_pays": [{"count": 5, "times": 1}]}, r"match_pays\[0\].count must be a whole number 1..4, not 5"),
    ({"bonus_games": []}, "bonus_games must be a non-empty list"),
    ({"bonus_games": [{"code": 1, "name": "Touchdown", "symbol": 12, "chances": 4}]},
     r"bonus_games\[0\].symbol 12 is the wild, the bonus key or another game's symbol"),
    ({"bonus_games": [{"code": 1, "name": "Touchdown", "symbol": 10, "chances": 4, "grid": [1]}]},
     r"bonus_games\[0\]. has either chances or grid"),
    ({"bonus_games": [{"code": 2, "name": "Touchdown", "symbol": 10, "chances": 4}]},
     r"bonus_games\[0\].code must be 1 and name a text"),
    ({"amount_multipliers": [0.5]}, "amount_multipliers must be a non-empty list of decimal texts"),
    ({"amount_multipliers": ["-1"]}, "amount_multipliers must be positive"),
])
def test_a_bad_play_entry_is_refused(changes, message):
    table = ptp_row([([1, 2, 3, 4], A, 0, 0, 0)], prize=0)
    with pytest.raises(ValueError, match=r"^manifest play entry \(area_match\): " + message):
        ptp.evaluate(table, d200(1), edited_play(**changes))
