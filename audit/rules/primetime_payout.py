"""Primetime Payout (K.A.R. 111-23-23): re-evaluates every share from its layout columns.

Written from specs/primetime_payout.md alone (sections 2 to 6). A pool with k play areas has, for
every area i in 0 .. k-1, four symbol codes `a{i}_s0 .. a{i}_s3`, the revealed amount `a{i}_amount`
(cents) and the bonus columns `a{i}_bonus`, `a{i}_bonus_result`, `a{i}_bonus_prizes`. An area wins
twice its amount for four matching symbols, its amount for three, N times its amount for a bonus
game of N prizes, else 0 (the Coin is wild for every matchable symbol). A share pays the sum of its
areas; its number of wins is its number of winning areas. A share must not show what a plain reading
of the regulation takes for a win it is not paid (rules 10 and 11): three of one bonus symbol in an
area, a bonus trigger with a second Golden Football or a second Touchdown / Field Goal, or a Golden
Football in one area with a Touchdown or Field Goal in another.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import polars as pl

from audit.rules import Evaluation
from audit.rules._shared import Reasons

__all__ = ["AMOUNT_MULTIPLIERS", "FIELD_GOAL_GRID", "layout_columns", "evaluate"]

SPOTS = 4
MATCHABLE = (1, 2, 3, 4, 5, 6, 7, 8, 13)  # the eight plain symbols and the Jackpot Coin
GFOOT, TD, FG, COIN = 9, 10, 11, 12
MAX_CODE = 13
NO_BONUS, TOUCHDOWN, FIELD_GOAL = 0, 1, 2
BONUS_NAMES = {NO_BONUS: "no bonus", TOUCHDOWN: "Touchdown", FIELD_GOAL: "Field Goal"}
SYMBOL_NAMES = {GFOOT: "Golden Football", TD: "Touchdown", FG: "Field Goal"}

# Section 4: prizes of the Field Goal grid sections 0 .. 5.
FIELD_GOAL_GRID = (1, 2, 3, 4, 2, 1)

# Section 6: an area's amount is x x D cents for one of these x (the 58 multipliers of table (j)).
AMOUNT_MULTIPLIERS = tuple(Fraction(x) for x in [
    "0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4", "4.5", "5", "6", "7", "8", "9", "10", "12", "15",
    "17", "19", "20", "22", "25", "27", "30", "35", "40", "42", "43", "50", "52", "54", "55", "56", "57",
    "59", "60", "65", "67", "69", "70", "72", "74", "75", "77", "79", "80", "82", "84", "87", "89", "90",
    "100", "250", "500", "1000", "1004", "2500", "5000",
])


def _area_columns(i: int) -> dict[str, pl.DataType]:
    columns: dict[str, pl.DataType] = {f"a{i}_s{j}": pl.UInt8() for j in range(SPOTS)}
    columns[f"a{i}_amount"] = pl.Int64()
    columns[f"a{i}_bonus"] = pl.UInt8()
    columns[f"a{i}_bonus_result"] = pl.UInt8()
    columns[f"a{i}_bonus_prizes"] = pl.UInt8()
    return columns


def layout_columns(pool: dict) -> dict[str, pl.DataType]:
    """The contract's layout columns (section 2) of a pool and their dtypes, in file order."""
    columns: dict[str, pl.DataType] = {}
    for i in range(int(pool["play_areas"])):
        columns.update(_area_columns(i))
    return columns


def _amounts(denomination: int) -> list[int]:
    """The legal amounts of an area, in cents (section 6), for a denomination in cents."""
    cents = (x * denomination for x in AMOUNT_MULTIPLIERS)
    return sorted({int(v) for v in cents if v.denominator == 1})




def _int_column(table: pl.DataFrame, name: str, reasons: Reasons, code: bool = False) -> np.ndarray:
    """A column as int64; a null is reported as illegal and read as 0. A `code` column (symbols and
    bonus columns, small numbers) stored as uint8, its dtype in section 2, is read as it is."""
    if name not in table.columns:
        raise ValueError(f"primetime_payout: layout column {name!r} missing")
    series = table[name]
    if not series.dtype.is_integer():
        raise ValueError(f"primetime_payout: layout column {name!r} has dtype {series.dtype}, not integer")
    if series.null_count():
        reasons.add(series.is_null().to_numpy(), lambda r: f"{name} is null")
        series = series.fill_null(0)
    values = series.to_numpy()
    return values if code and values.dtype == np.uint8 else values.astype(np.int64, copy=False)


def _check_pool(table: pl.DataFrame, pool: dict) -> tuple[int, int]:
    """The pool's number of areas k and denomination D (cents); its columns must be those of k areas."""
    areas = int(pool["play_areas"])
    denomination = int(pool["denomination_cents"])
    if areas < 1:
        raise ValueError(f"primetime_payout: pool {pool.get('id')!r}: play_areas {areas} < 1")
    if "price_cents" in pool and int(pool["price_cents"]) != denomination * areas:
        raise ValueError(f"primetime_payout: pool {pool.get('id')!r}: price_cents {pool['price_cents']} "
                         f"!= denomination_cents {denomination} x play_areas {areas}")
    expected = set(layout_columns(pool))
    foreign = [c for c in table.columns if c not in expected and re.match(r"a\d+_", c)]
    if foreign:
        raise ValueError(f"primetime_payout: pool {pool.get('id')!r} has {areas} play areas but the table "
                         f"has columns {foreign[:4]} of other areas")
    return areas, denomination


def evaluate(table: pl.DataFrame, pool: dict) -> Evaluation:
    """Prize (cents) and number of winning areas of every row, and every row breaking section 5.

    The reasons of an illegal row list every broken rule, area by area (rules 1 to 8 and 10), then
    the share's rules 11 and 9, joined with "; ".
    """
    areas, denomination = _check_pool(table, pool)
    n = table.height
    reasons = Reasons()
    legal_amounts = _amounts(denomination)
    prize = np.zeros(n, dtype=np.int64)
    wins = np.zeros(n, dtype=np.int64)
    area_wins: list[np.ndarray] = []
    shows: list[dict[int, np.ndarray]] = []  # per area: whether it shows GFOOT, TD, FG

    for i in range(areas):
        spots = [_int_column(table, f"a{i}_s{j}", reasons, code=True) for j in range(SPOTS)]
        amount = _int_column(table, f"a{i}_amount", reasons)
        bonus = _int_column(table, f"a{i}_bonus", reasons, code=True)
        result = _int_column(table, f"a{i}_bonus_result", reasons, code=True)
        prizes = _int_column(table, f"a{i}_bonus_prizes", reasons, code=True)

        # Section 4 (`codes` is the area's (4, n) matrix of symbol codes; counts in uint8, at most 4).
        codes = np.stack(spots)
        coins = (codes == COIN).sum(axis=0, dtype=np.uint8)
        best = np.zeros(n, dtype=np.uint8)
        for code in MATCHABLE:
            np.maximum(best, (codes == code).sum(axis=0, dtype=np.uint8), out=best)
        match = coins + best
        counts = {c: (codes == c).sum(axis=0, dtype=np.uint8) for c in (GFOOT, TD, FG)}
        has_gfoot, has_td, has_fg = [counts[c] > 0 for c in (GFOOT, TD, FG)]
        shows.append({GFOOT: has_gfoot, TD: has_td, FG: has_fg})
        trigger = np.where(has_gfoot & has_td, TOUCHDOWN, np.where(has_gfoot & has_fg, FIELD_GOAL, NO_BONUS))
        # The win is the amount times 2 (match 4), 1 (match 3), N (a bonus game of N prizes) or 0.
        times = np.where(match >= 4, 2, np.where(match == 3, 1, np.where(trigger != NO_BONUS, prizes, 0)))
        win = (times * amount).astype(np.int64, copy=False)
        area_wins.append(win)
        prize += win
        wins += win > 0

        # Rule 1: symbol codes 1..13.
        for j, s in enumerate(spots):
            reasons.add((s < 1) | (s > MAX_CODE),
                        lambda r, i=i, j=j, s=s: f"a{i}_s{j} has code {s[r]}, not a symbol code 1..13")
        # Rule 2: never all three bonus symbols in one area.
        reasons.add(has_gfoot & has_td & has_fg,
                    lambda r, i=i: f"area {i}: Golden Football, Touchdown and Field Goal together")
        # Rule 3: the bonus column is the area's trigger.
        reasons.add(bonus != trigger,
                    lambda r, i=i, bonus=bonus, trigger=trigger: (
                        f"area {i}: a{i}_bonus is {bonus[r]} but its symbols trigger "
                        f"{BONUS_NAMES[int(trigger[r])]} ({trigger[r]})"))
        # Rule 4: no bonus, no result and no prizes.
        none = bonus == NO_BONUS
        reasons.add(none & ((result != 0) | (prizes != 0)),
                    lambda r, i=i, result=result, prizes=prizes: (
                        f"area {i}: no bonus but a{i}_bonus_result {result[r]}, "
                        f"a{i}_bonus_prizes {prizes[r]}"))
        # Rule 7 (before 5 and 6, which it implies): a bonus wins at least one prize.
        played = (bonus != NO_BONUS) & (prizes == 0)
        reasons.add(played, lambda r, i=i, bonus=bonus: (
            f"area {i}: {BONUS_NAMES.get(int(bonus[r]), f'bonus {bonus[r]}')} bonus with 0 prizes"))
        # Rule 5: a Touchdown scoring mask in 1..15 whose set bits are the prizes.
        touchdown = bonus == TOUCHDOWN
        bad_mask = touchdown & ((result < 1) | (result > 15))
        reasons.add(bad_mask, lambda r, i=i, result=result: (
            f"area {i}: Touchdown a{i}_bonus_result {result[r]} not a scoring mask 1..15"))
        scored = sum(((result >> b) & 1) for b in range(4))
        reasons.add(touchdown & ~bad_mask & (prizes != 0) & (scored != prizes),
                    lambda r, i=i, result=result, prizes=prizes, scored=scored: (
                        f"area {i}: Touchdown mask {result[r]} scores {scored[r]}, "
                        f"a{i}_bonus_prizes is {prizes[r]}"))
        # Rule 6: a Field Goal grid section 0..5 whose prizes are the prizes.
        field_goal = bonus == FIELD_GOAL
        bad_section = field_goal & ((result < 0) | (result > len(FIELD_GOAL_GRID) - 1))
        reasons.add(bad_section, lambda r, i=i, result=result: (
            f"area {i}: Field Goal a{i}_bonus_result {result[r]} not a grid section 0..5"))
        sections = np.array(FIELD_GOAL_GRID, dtype=np.int64)
        grid = np.take(sections, np.clip(result, 0, len(FIELD_GOAL_GRID) - 1))
        reasons.add(field_goal & ~bad_section & (prizes != 0) & (grid != prizes),
                    lambda r, i=i, result=result, prizes=prizes, grid=grid: (
                        f"area {i}: Field Goal section {result[r]} wins {grid[r]}, "
                        f"a{i}_bonus_prizes is {prizes[r]}"))
        # Rule 8: a positive amount x x D with x an amount multiplier.
        reasons.add(amount <= 0, lambda r, i=i, amount=amount: f"area {i}: a{i}_amount {amount[r]} not > 0")
        reasons.add((amount > 0) & ~pl.Series(amount).is_in(legal_amounts).to_numpy(),
                    lambda r, i=i, amount=amount: (
                        f"area {i}: a{i}_amount {amount[r]} is not an amount multiplier x {denomination}"))

        # Rule 10: never three of one bonus symbol; a trigger shows one Golden Football and one of
        # its Touchdown / Field Goal.
        for c in (GFOOT, TD, FG):
            reasons.add(counts[c] >= 3, lambda r, i=i, c=c, count=counts[c]: (
                f"area {i}: {count[r]} {SYMBOL_NAMES[c]} symbols match and win nothing"))
        for c in (GFOOT, TD, FG):
            reasons.add((trigger != NO_BONUS) & (counts[c] == 2), lambda r, i=i, c=c: (
                f"area {i}: a bonus trigger with 2 {SYMBOL_NAMES[c]} symbols"))

    # Rule 11: no Golden Football in one area with a Touchdown or Field Goal in another.
    for i in range(areas):
        for j in range(areas):
            for c in (TD, FG):
                if i != j:
                    reasons.add(shows[i][GFOOT] & shows[j][c], lambda r, i=i, j=j, c=c: (
                        f"Golden Football in area {i} and {SYMBOL_NAMES[c]} in area {j}"))

    # Rule 9: the areas pay prize_cents; the losing tier pays 0 and only it does.
    def _sum(r: int) -> str:
        return " + ".join(str(w[r]) for w in area_wins) + f" = {prize[r]}"

    if "prize_cents" in table.columns:
        stated = _int_column(table, "prize_cents", reasons)
        reasons.add(prize != stated, lambda r: f"areas pay {_sum(r)} cents, prize_cents is {stated[r]}")
    if "tier" in table.columns:
        tiers = table["tier"]
        losing = (tiers == "lose").fill_null(False).to_numpy()
        reasons.add(losing != (prize == 0), lambda r: f"tier {tiers[r]!r} but the areas pay {_sum(r)} cents")

    return Evaluation(prize_cents=prize, wins=wins, illegal=reasons.illegal())
