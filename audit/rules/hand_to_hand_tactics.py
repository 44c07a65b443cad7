"""Hand to Hand Tactics (K.A.R. 111-23-22): re-evaluates every share from its layout columns.

Written from specs/hand_to_hand_tactics.md alone (sections 2 to 4). A share has 15 play spots
`spot_0 .. spot_14` (outcome codes) and `amt_0 .. amt_14` (cents revealed at a WIN spot). It pays

    prize = (1 + number of MULTIPLIER spots) x (sum of the amounts)

and is legal iff rules 1 to 5 of the contract's section 3 hold. The number of wins of a share is
its number of WIN spots (each win increments the prize legend).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import polars as pl

from audit.rules import Evaluation
from audit.rules._shared import Reasons

__all__ = ["SPOTS", "layout_columns", "evaluate", "off_legend"]

SPOTS = 15
UNPLAYED, LOSE, TIE, WIN, MULTIPLIER = 0, 1, 2, 3, 4
NAMES = {UNPLAYED: "UNPLAYED", LOSE: "LOSE", TIE: "TIE", WIN: "WIN", MULTIPLIER: "MULTIPLIER"}
LOSSES = 3


def layout_columns(pool: dict | None = None) -> dict[str, pl.DataType]:
    """The contract's layout columns (section 2) and their dtypes, in file order."""
    columns: dict[str, pl.DataType] = {f"spot_{i}": pl.UInt8() for i in range(SPOTS)}
    columns.update({f"amt_{i}": pl.Int64() for i in range(SPOTS)})
    return columns


def _name(code: int) -> str:
    return NAMES.get(code, f"code {code}")


def _a(name: str) -> str:
    return f"an {name}" if name[0] in "AEIOU" else f"a {name}"


def _int_column(table: pl.DataFrame, name: str, code: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """A layout column as int64 (nulls as 0) and the mask of its nulls (None if it has none). A `code`
    column (outcome codes) stored as uint8, its dtype in section 2, is read as it is."""
    if name not in table.columns:
        raise ValueError(f"hand_to_hand_tactics: layout column {name!r} missing")
    series = table[name]
    if not series.dtype.is_integer():
        raise ValueError(f"hand_to_hand_tactics: layout column {name!r} has dtype {series.dtype}, "
                         "not integer")
    nulls = series.is_null().to_numpy() if series.null_count() else None
    values = (series if nulls is None else series.fill_null(0)).to_numpy()
    return (values if code and values.dtype == np.uint8 else values.astype(np.int64, copy=False)), nulls




def evaluate(table: pl.DataFrame, pool: dict) -> Evaluation:
    """Prize (cents) and number of WIN spots of every row, and every row breaking section 3.

    `pool` is not needed: the contract evaluates a row from its layout alone. The illegal rows'
    reasons list every broken rule, in rule order, joined with "; ".
    """
    n = table.height
    reasons = Reasons()
    spot_cols = [_int_column(table, f"spot_{i}", code=True) for i in range(SPOTS)]
    amt_cols = [_int_column(table, f"amt_{i}") for i in range(SPOTS)]
    for i, (_, nulls) in enumerate(spot_cols):
        if nulls is not None:
            reasons.add(nulls, lambda r, i=i: f"spot_{i} is null")
    for i, (_, nulls) in enumerate(amt_cols):
        if nulls is not None:
            reasons.add(nulls, lambda r, i=i: f"amt_{i} is null")
    codes = [c for c, _ in spot_cols]
    amts = [a for a, _ in amt_cols]

    # Rule 1: every code is an outcome code.
    for i, code in enumerate(codes):
        reasons.add((code < 0) | (code > MULTIPLIER),
                    lambda r, i=i: f"spot_{i} has code {codes[i][r]}, not an outcome code 0..4")

    # Rule 2: exactly three losses; e (`third`) = the spot of the third, -1 if none.
    n_losses = np.zeros(n, dtype=np.uint8)  # at most SPOTS
    third = np.full(n, -1, dtype=np.int8)
    for i, code in enumerate(codes):
        n_losses += code == LOSE
        np.putmask(third, (third < 0) & (n_losses == LOSSES), i)

    def _losses(r: int) -> str:
        spots = ", ".join(str(i) for i, code in enumerate(codes) if code[r] == LOSE)
        return f"{n_losses[r]} LOSE spots" + (f" ({spots})" if spots else "") + ", not exactly 3"

    reasons.add(n_losses != LOSSES, _losses)

    # Rule 3: spots up to the third loss are played, spots after it UNPLAYED (defined only when
    # there is a third loss; a row with fewer losses already breaks rule 2).
    has_third = third >= 0
    for i, code in enumerate(codes):
        reasons.add(has_third & (i <= third) & (code == UNPLAYED),
                    lambda r, i=i: f"spot_{i} is UNPLAYED before the third loss at spot {third[r]}")
        reasons.add(has_third & (i > third) & (code != UNPLAYED),
                    lambda r, i=i: (f"spot_{i} is {_name(codes[i][r])} after the third loss "
                                    f"at spot {third[r]}"))

    # Rule 4: an amount > 0 on every WIN spot, 0 on every other spot.
    for i, (code, amt) in enumerate(zip(codes, amts, strict=True)):
        win = code == WIN
        reasons.add(win & (amt <= 0), lambda r, i=i: f"amt_{i} is {amts[i][r]} on a WIN spot, not > 0")
        reasons.add(~win & (amt != 0),
                    lambda r, i=i: f"amt_{i} is {amts[i][r]} on {_a(_name(codes[i][r]))} spot, not 0")

    # Section 4: prize = (1 + #MULTIPLIER) x sum of the amounts; wins = #WIN.
    multiplier = np.ones(n, dtype=np.uint8)  # at most 1 + SPOTS
    total = np.zeros(n, dtype=np.int64)
    wins = np.zeros(n, dtype=np.uint8)  # at most SPOTS
    for code, amt in zip(codes, amts, strict=True):
        multiplier += code == MULTIPLIER
        total += amt
        wins += code == WIN
    prize = multiplier * total
    wins = wins.astype(np.int64)

    # Rule 5: the row pays its prize_cents; the losing tier pays 0 and only it does.
    if "prize_cents" in table.columns:
        stated, stated_nulls = _int_column(table, "prize_cents")
        if stated_nulls is not None:
            reasons.add(stated_nulls, lambda r: "prize_cents is null")
        reasons.add(prize != stated, lambda r: f"layout pays {prize[r]} cents, prize_cents is {stated[r]}")
    if "tier" in table.columns:
        tiers = table["tier"]
        losing = (tiers == "lose").fill_null(False).to_numpy()
        reasons.add(losing != (prize == 0),
                    lambda r: f"tier {tiers[r]!r} but the layout pays {prize[r]} cents")

    return Evaluation(prize_cents=prize, wins=wins, illegal=reasons.illegal())


def off_legend(table: pl.DataFrame, pool: dict, legend: Sequence[str]) -> list[tuple[int, str]]:
    """The contract's optional check (end of section 3): rows with a WIN amount that is not a prize
    symbol `v x denomination` for a `v` of `legend` (the spec's `[layout].legend`, decimal strings).

    The denomination is the pool's `denomination_cents`, else its share price (one play area).
    Not part of legality (section 3 is "if and only if" rules 1 to 5), so `evaluate` does not call it.
    """
    denomination = int(pool.get("denomination_cents") or pool["price_cents"])
    symbols = sorted({int(v) for v in (Fraction(x) * denomination for x in legend) if v.denominator == 1})
    allowed = np.array(symbols, dtype=np.int64)
    reasons = Reasons()
    for i in range(SPOTS):
        codes, _ = _int_column(table, f"spot_{i}")
        amts, _ = _int_column(table, f"amt_{i}")
        reasons.add((codes == WIN) & ~np.isin(amts, allowed),
                    lambda r, i=i, amts=amts: f"amt_{i} is {amts[r]}, not a legend value x {denomination}")
    return reasons.illegal()
