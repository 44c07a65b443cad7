"""The `prize_legend_duel` eInstant style's engine: re-evaluates every share from its layout columns.

Written from docs/styles/prize_legend_duel.md alone (sections 2 to 5), with every parameter read from
the manifest's `play` entry. A share has `spots` play spots `spot_i` (outcome codes) and `amt_i`
(cents revealed at a WIN spot). It pays

    prize = (1 + number of MULTIPLIER spots) x (sum of the amounts)

and is legal iff rules 1 to 7 of the contract's section 4 hold (rule 7: a losing share shows at most
`loser_max_multipliers` MULTIPLIER spots). Its number of wins is its number of WIN spots (each win
increments the prize legend).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, SupportsInt

import numpy as np
import polars as pl

from audit.styles.interface import Evaluation, Reasons, might_wrap, read_column

__all__ = ["Duel", "evaluate", "layout_columns", "play_from_spec", "read_play"]

UNPLAYED, LOSE, TIE, WIN, MULTIPLIER = 0, 1, 2, 3, 4
NAMES = {UNPLAYED: "UNPLAYED", LOSE: "LOSE", TIE: "TIE", WIN: "WIN", MULTIPLIER: "MULTIPLIER"}
MAX_SPOTS = 40
MAX_LEGEND = 64


class Duel:
    """The parameters an engine reads from `play` (contract, section 2): spots, losses, legend and
    loser_max_multipliers (rule 7; spots - losses, no bound beyond rules 2 and 3, when absent)."""

    def __init__(self, spots: int, losses: int, legend: tuple[Fraction, ...],
                 loser_max_multipliers: int) -> None:
        self.spots, self.losses, self.legend = spots, losses, legend
        self.loser_max_multipliers = loser_max_multipliers


def play_from_spec(doc: dict[str, Any]) -> dict[str, Any]:
    """The play entry section 2 derives from a spec (its TOML as read): every `[play]` field, the play
    and multiplier symbols with their `[[symbols]]` text; step 5 holds the manifest's to it (a
    `loser_max_multipliers` above the spec's would pass losers the game's rules forbid)."""
    play = doc["play"]
    text = {s["code"]: s["symbol"] for s in doc["symbols"] if s.get("group") == "play"}
    multiplier = play["multiplier_symbol"]
    return {"style": "prize_legend_duel", "spots": play["spots"], "losses": play["losses"],
            "play_symbols": [{"code": c, "symbol": text[c], "beats": list(play["beats"][c])}
                             for c in play["play_symbols"]],
            "multiplier_symbol": {"code": multiplier, "symbol": text[multiplier]},
            "legend": list(play["legend"]), "max_decompositions": play["max_decompositions"],
            "first_spot_loss": play["first_spot_loss"],
            "loser_max_multipliers": play["loser_max_multipliers"]}


def _bad(what: str) -> ValueError:
    return ValueError(f"manifest play entry: play.{what}")


def read_play(play: dict[str, Any]) -> Duel:
    """spots, losses, legend and loser_max_multipliers of the manifest's `play` entry; ValueError
    naming a bad field."""
    if not isinstance(play, dict) or play.get("style") != "prize_legend_duel":
        raise _bad("style is not 'prize_legend_duel'")

    def whole(key: str, lo: int, hi: int) -> int:
        v = play.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise _bad(f"{key}: {v!r} is not a whole number {lo}..{hi}")
        return v

    losses = whole("losses", 1, MAX_SPOTS - 1)
    spots = whole("spots", losses + 1, MAX_SPOTS)
    raw = play.get("legend")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_LEGEND:
        raise _bad(f"legend: not a list of 1 to {MAX_LEGEND} decimal strings")
    legend = []
    for v in raw:
        # a plain decimal: digits with at most one point, at most 40 characters (no exponent)
        if not isinstance(v, str) or not 0 < len(v) <= 40 or v.count(".") > 1 \
                or not v.replace(".", "", 1).isdigit() or not v.replace(".", "", 1).isascii():
            raise _bad(f"legend: {v!r} is not a plain decimal string")
        value = Fraction(v)
        if value <= 0:
            raise _bad(f"legend: {v!r} is not positive")
        legend.append(value)
    # section 2: loser_max_multipliers, a whole number 0 .. spots - losses; absent, spots - losses
    lmax = whole("loser_max_multipliers", 0, spots - losses) if "loser_max_multipliers" in play \
        else spots - losses
    return Duel(spots, losses, tuple(legend), lmax)


def layout_columns(play: dict[str, Any]) -> dict[str, pl.DataType]:
    """The contract's layout columns (section 3) and their dtypes, in file order."""
    duel = read_play(play)
    columns: dict[str, pl.DataType] = {f"spot_{i}": pl.UInt8() for i in range(duel.spots)}
    columns.update({f"amt_{i}": pl.Int64() for i in range(duel.spots)})
    return columns


def _name(code: SupportsInt) -> str:
    return NAMES.get(int(code), f"code {code}")


def _a(name: str) -> str:
    return f"an {name}" if name[0] in "AEIOU" else f"a {name}"


def _int_column(table: pl.DataFrame, name: str, code: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """A layout column as int64 (nulls as 0) and the mask of its nulls (None if it has none). A `code`
    column (outcome codes) stored as uint8, its dtype in section 3, is read as it is."""
    read_column(name)
    if name not in table.columns:
        raise ValueError(f"prize_legend_duel: layout column {name!r} missing")
    series = table[name]
    if not series.dtype.is_integer():
        raise ValueError(f"prize_legend_duel: layout column {name!r} has dtype {series.dtype}, not integer")
    nulls = series.is_null().to_numpy() if series.null_count() else None
    values = (series if nulls is None else series.fill_null(0)).to_numpy()
    return (values if code and values.dtype == np.uint8 else values.astype(np.int64, copy=False)), nulls


def evaluate(table: pl.DataFrame, pool: dict[str, Any], play: dict[str, Any]) -> Evaluation:
    """Prize (cents) and number of WIN spots of every row, and every row breaking section 4 (rules 1
    to 7).

    `pool` is the pool's manifest entry (its `denomination_cents` for rule 5); `play` the manifest's
    play entry. The illegal rows' reasons list every broken rule, in rule order, joined with "; ".
    """
    duel = read_play(play)
    spots, losses = duel.spots, duel.losses
    n = table.height
    reasons = Reasons()
    spot_cols = [_int_column(table, f"spot_{i}", code=True) for i in range(spots)]
    amt_cols = [_int_column(table, f"amt_{i}") for i in range(spots)]
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

    # Rule 2: exactly `losses` losses; e (`last`) = the spot of the last of them, -1 if none.
    n_losses = np.zeros(n, dtype=np.uint8)  # at most MAX_SPOTS
    last = np.full(n, -1, dtype=np.int8)
    for i, code in enumerate(codes):
        n_losses += code == LOSE
        np.putmask(last, (last < 0) & (n_losses == losses), i)

    def _losses(r: int) -> str:
        where = ", ".join(str(i) for i, code in enumerate(codes) if code[r] == LOSE)
        return f"{n_losses[r]} LOSE spots" + (f" ({where})" if where else "") + f", not exactly {losses}"

    reasons.add(n_losses != losses, _losses)

    # Rule 3: spots up to the last loss are played, spots after it UNPLAYED (defined only when there
    # is such a loss; a row with fewer losses already breaks rule 2).
    has_last = last >= 0
    for i, code in enumerate(codes):
        reasons.add(has_last & (i <= last) & (code == UNPLAYED),
                    lambda r, i=i: f"spot_{i} is UNPLAYED before the last loss at spot {last[r]}")
        reasons.add(has_last & (i > last) & (code != UNPLAYED),
                    lambda r, i=i: (f"spot_{i} is {_name(codes[i][r])} after the last loss "
                                    f"at spot {last[r]}"))

    # Rule 4: an amount > 0 on every WIN spot, 0 on every other spot.
    for i, (code, amt) in enumerate(zip(codes, amts, strict=True)):
        win = code == WIN
        reasons.add(win & (amt <= 0), lambda r, i=i: f"amt_{i} is {amts[i][r]} on a WIN spot, not > 0")
        reasons.add(~win & (amt != 0),
                    lambda r, i=i: f"amt_{i} is {amts[i][r]} on {_a(_name(codes[i][r]))} spot, not 0")

    # Rule 5: every amount > 0 is a legend value x the denomination.
    denomination = pool.get("denomination_cents") if isinstance(pool, dict) else None
    if isinstance(denomination, bool) or not isinstance(denomination, int) or denomination < 1:
        raise ValueError(f"prize_legend_duel: pool denomination_cents {denomination!r} is not a whole "
                         "number >= 1")
    # a value whose cents are not whole, or more than an int64 amount column holds, is no amount
    symbols = np.array(sorted({int(v * denomination) for v in duel.legend
                               if (v * denomination).denominator == 1 and v * denomination < 2**63}),
                       dtype=np.int64)
    for i, amt in enumerate(amts):
        reasons.add((amt > 0) & ~np.isin(amt, symbols),
                    lambda r, i=i: f"amt_{i} is {amts[i][r]}, not a legend value x {denomination}")

    # Section 5: prize = (1 + #MULTIPLIER) x sum of the amounts; wins = #WIN.
    multiplier = np.ones(n, dtype=np.int64)
    total = np.zeros(n, dtype=np.int64)
    wins = np.zeros(n, dtype=np.int64)
    for code, amt in zip(codes, amts, strict=True):
        multiplier += code == MULTIPLIER
        total += amt
        wins += code == WIN
    prize: np.ndarray = multiplier * total
    # Rule 6 is exact, in integer arithmetic: rows whose amounts int64 may not hold are recomputed.
    wide = might_wrap(multiplier * sum(a.astype(np.float64) for a in amts))
    if wide.any():
        prize = prize.astype(object)
        for r in np.flatnonzero(wide).tolist():
            prize[r] = int(multiplier[r]) * sum(int(a[r]) for a in amts)

    # Rule 6: the row pays its prize_cents; the losing tier pays 0 and only it does.
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

        # Rule 7 (section 9): a losing share (tier "lose") shows at most loser_max_multipliers
        # MULTIPLIER spots.
        lmax = duel.loser_max_multipliers
        shown = multiplier - 1
        reasons.add(losing & (shown > lmax), lambda r: (
            f"a losing share shows {shown[r]} MULTIPLIER spot(s), at most {lmax} (loser_max_multipliers)"))

    return Evaluation(prize_cents=prize, wins=wins, illegal=reasons.illegal())
