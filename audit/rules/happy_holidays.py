"""Happy Holidays (K.A.R. 111-4-3836): what every layout pays, and which layouts break the rules.

Written from the layout contract specs/happy_holidays.md alone (section numbers below refer to it).
Six play spots; three identical prize symbols win that symbol's amount; a ticket wins at most once.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from audit.rules import Evaluation
from audit.rules._shared import LazyColumn, Reasons, int_columns, show

SPOTS = tuple(f"spot_{j}" for j in range(6))  # section 2

# Section 3: layout code -> symbol as printed, and what three of it pay (cents). FREE pays a free
# $1.00 ticket, valued at the ticket price.
SYMBOLS = ("FREE", "$1.00", "$2.00", "$5.00", "20.00", "$100")
VALUES = np.array([100, 100, 200, 500, 2000, 10_000], dtype=np.int64)
N_CODES = len(SYMBOLS)

# Section 1: tier id -> layout code of the symbol its winners show three times (-1: the loser tier).
TIER_SYMBOL = {"lose": -1, "free": 0, "1": 1, "2": 2, "5": 3, "20": 4, "100": 5}
_UNKNOWN_TIER = -2

MATCH = 3  # (f) three identical prize symbols
LOSER_SHAPES = ("2+2+2", "2+2+1+1")  # section 5, Decision (shapes)


def evaluate(table: pl.DataFrame, pool: dict) -> Evaluation:
    """Prize (cents) and number of wins of every row from its six spots (section 4), and the illegal
    rows (section 5). `pool` is not needed: the game has one price and no layout parameters."""
    codes = int_columns(table, SPOTS)
    valid = (codes >= 0) & (codes < N_CODES)
    counts = np.stack([(codes == s).sum(axis=1) for s in range(N_CODES)], axis=1)  # c[s], section 4.1
    triple = counts >= MATCH
    wins = triple.sum(axis=1).astype(np.int64)
    # Section 4.2. With two triples (illegal, section 5: "two wins") each pays its amount.
    prize = (triple * VALUES).sum(axis=1).astype(np.int64)

    bad_code = ~valid.all(axis=1)
    four = (counts > MATCH).any(axis=1)
    two_triples = wins >= 2
    pairs = (counts == 2).sum(axis=1)
    bad_shape = valid.all(axis=1) & (wins == 0) & (pairs < 2)  # a loser shows 2+2+2 or 2+2+1+1

    if "tier" in table.columns:
        tier_sym = (table["tier"].replace_strict(TIER_SYMBOL, default=_UNKNOWN_TIER, return_dtype=pl.Int8)
                    .fill_null(_UNKNOWN_TIER).to_numpy().astype(np.int64))
        shown = np.where(wins == 1, triple.argmax(axis=1), -1)
        unknown = tier_sym == _UNKNOWN_TIER
        # Section 5: the computed prize or symbol disagrees with the row's tier.
        disagree = ~unknown & ((wins >= 2) | (shown != tier_sym))
    else:
        tier_sym = np.full(len(codes), _UNKNOWN_TIER, dtype=np.int64)
        unknown = disagree = np.zeros(len(codes), dtype=bool)

    names = LazyColumn(table, "tier")
    reasons = Reasons()
    reasons.add(bad_code, lambda r: "not a symbol code 0..5: " + ", ".join(
        f"{SPOTS[j]}={show(v)}" for j, v in enumerate(codes[r].tolist()) if not 0 <= v < N_CODES))
    reasons.add(four, lambda r: "; ".join(f"{SYMBOLS[s]} shown {counts[r, s]} times (a win is three "
                                          "identical symbols)" for s in np.flatnonzero(counts[r] > MATCH)))
    reasons.add(two_triples, lambda r: f"two wins ({_triples(counts[r])}): a ticket wins at most once")
    reasons.add(bad_shape, lambda r: f"loser shape {_shape(counts[r])} (only {' or '.join(LOSER_SHAPES)})")
    reasons.add(unknown, lambda r: f"unknown tier {names[r]!r}")
    reasons.add(disagree, lambda r: f"layout shows {_triples(counts[r]) or 'no triple'}, tier {names[r]!r} "
                f"shows {'no triple' if tier_sym[r] < 0 else 'three ' + SYMBOLS[tier_sym[r]]}")
    illegal = reasons.illegal()
    return Evaluation(prize_cents=prize, wins=wins, illegal=illegal)






def _shape(c: np.ndarray) -> str:
    return "+".join(str(k) for k in sorted(c[c > 0].tolist(), reverse=True))


def _triples(c: np.ndarray) -> str:
    return " and ".join(f"three {SYMBOLS[s]}" for s in np.flatnonzero(c >= MATCH))




