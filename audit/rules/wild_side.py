"""Wild Side (K.A.R. 111-4-3762): what every layout pays, and which layouts break the rules.

Written from the layout contract specs/wild_side.md alone (section numbers below refer to it) and,
for what each tier wins, the `your`/`wild`/`bonus` lists of the tiers in specs/wild_side.toml.
Five LUCKY NUMBERS; a YOUR NUMBER equal to one wins the prize below it, a YOUR WILD NUMBER five
times the prize below it; a WIN$ symbol in a WILD BONUS spot wins its amount; at most 21 wins.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from audit.rules import Evaluation
from audit.rules._shared import LazyColumn, Reasons, int_columns, show

N_SPOTS = 12
LUCKY = tuple(f"lucky_{j}" for j in range(5))  # section 2
YOUR = tuple(f"your_{j}" for j in range(N_SPOTS))
YOUR_PRIZE = tuple(f"your_prize_{j}" for j in range(N_SPOTS))
WILD = tuple(f"wild_{j}" for j in range(N_SPOTS))
WILD_PRIZE = tuple(f"wild_prize_{j}" for j in range(N_SPOTS))
BONUS = tuple(f"bonus_{j}" for j in range(3))

# Section 3, Numbers: the 46 numbers of the game, stored as their value.
NUMBERS = (3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28, 29, 30, 31,
           32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53)

# Section 3, Prize symbols: layout code -> spec code and value (cents). FREE is a free $5.00 ticket.
PRIZE_CODES = ("FREE", "2", "5", "10", "15", "25", "50", "100", "500", "1000", "25000")
PRIZE_VALUES = np.array([500, 200, 500, 1000, 1500, 2500, 5000, 10_000, 50_000, 100_000, 2_500_000],
                        dtype=np.int64)
FREE = 0

# Section 3, WILD BONUS symbols: codes 0..7 are play symbols (no win), 8..10 the WIN$ prize symbols.
BONUS_CODES = ("GLDBAR", "BILL", "PGYBNK", "COIN", "POTGLD", "CLOVER", "DIAMND", "HRSHOE",
               "WIN10", "WIN25", "WIN50")
BONUS_VALUES = np.array([0] * 8 + [1000, 2500, 5000], dtype=np.int64)
FIRST_WIN_BONUS = 8

WILD_MULTIPLIER = 5  # section 1, (f)
MAX_WINS = 21  # section 1, (g)

# What each tier wins (section 1; sections 4 and 7): spec codes of the prize symbols won in YOUR
# NUMBERS, in YOUR WILD NUMBERS, and the WIN$ symbols revealed in the WILD BONUS spots, transcribed
# from the [[tiers]] of specs/wild_side.toml.
TIERS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "lose": ((), (), ()),
    "t01": (("FREE",), (), ()),
    "t02": (("5",), (), ()),
    "t03": (("10",), (), ()),
    "t04": ((), (), ("WIN10",)),
    "t05": ((), ("2",), ()),
    "t06": (("5", "5"), (), ()),
    "t07": (("15",), (), ()),
    "t08": (("5",), (), ("WIN10",)),
    "t09": (("5",) * 3, (), ()),
    "t10": (("25",), (), ()),
    "t11": ((), (), ("WIN25",)),
    "t12": (("5",) * 3, (), ("WIN10",)),
    "t13": (("5",) * 5, (), ()),
    "t14": ((), ("5",), ()),
    "t15": (("50",), (), ()),
    "t16": ((), (), ("WIN50",)),
    "t17": (("5",) * 3, (), ("WIN10", "WIN25")),
    "t18": ((), ("5", "5"), ()),
    "t19": ((), ("10",), ()),
    "t20": (("100",), (), ()),
    "t21": (("50", "50"), (), ()),
    "t22": (("25", "25"), (), ("WIN50",)),
    "t23": (("5",) * 3, (), ("WIN10", "WIN25", "WIN50")),
    "t24": ((), ("5",) * 4, ()),
    "t25": ((), ("10", "10"), ()),
    "t26": (("5",) * 5, ("10",), ("WIN25",)),
    "t27": (("500",), (), ()),
    "t28": ((), ("50", "50"), ()),
    "t29": ((), ("25",) * 4, ()),
    "t30": (("25",) * 5 + ("10",) * 6 + ("15",), ("5",) * 6, ("WIN50",) * 3),
    "t31": (("1000",), (), ()),
    "t32": (("500", "500"), (), ()),
    "t33": (("100",) * 5, ("100",), ()),
    "t34": (("25000",), (), ()),
}
TIER_IDS = tuple(TIERS)
_SENTINELS = np.arange(20_000, 20_000 + N_SPOTS, dtype=np.int16)  # stand-ins for matching numbers
_UNKNOWN_TIER = -1


def _expected_counts() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per tier (in TIER_IDS order): how many YOUR wins, WILD wins and bonus wins of each code."""
    your = np.zeros((len(TIERS), len(PRIZE_CODES)), dtype=np.int64)
    wild = np.zeros_like(your)
    bonus = np.zeros((len(TIERS), len(BONUS_CODES)), dtype=np.int64)
    for t, (y, w, b) in enumerate(TIERS.values()):
        for code in y:
            your[t, PRIZE_CODES.index(code)] += 1
        for code in w:
            wild[t, PRIZE_CODES.index(code)] += 1
        for code in b:
            bonus[t, BONUS_CODES.index(code)] += 1
    return your, wild, bonus


EXPECTED_YOUR, EXPECTED_WILD, EXPECTED_BONUS = _expected_counts()


def evaluate(table: pl.DataFrame, pool: dict) -> Evaluation:
    """Prize (cents) and number of wins of every row from its 56 spots (section 4), and the illegal
    rows (section 5). `pool` is not needed: the game has one price and its values are fixed."""
    lucky = int_columns(table, LUCKY)
    areas = {"YOUR": (int_columns(table, YOUR), int_columns(table, YOUR_PRIZE), 1),
             "WILD": (int_columns(table, WILD), int_columns(table, WILD_PRIZE), WILD_MULTIPLIER)}
    bonus = int_columns(table, BONUS)
    n = len(table)
    valid_number = np.zeros(256, dtype=bool)
    valid_number[list(NUMBERS)] = True

    prize = np.zeros(n, dtype=np.int64)
    wins = np.zeros(n, dtype=np.int64)
    won: dict[str, np.ndarray] = {}  # per area: (n, 11) how many wins show each prize code
    match: dict[str, np.ndarray] = {}
    bad_prize_code = np.zeros((n, 0), dtype=bool)
    uneven: dict[str, np.ndarray] = {}
    repeat: dict[str, np.ndarray] = {}
    for name, (numbers, prizes, multiplier) in areas.items():
        # Sections 4.1 and 4.2: a spot wins when its number is one of the LUCKY NUMBERS.
        hits = np.zeros((n, 5), dtype=np.int64)  # how many spots of the area show lucky_i
        m = np.zeros(numbers.shape, dtype=bool)
        for i in range(5):
            same = numbers == lucky[:, [i]]
            hits[:, i] = np.count_nonzero(same, axis=1)
            m |= same
        ok_prize = (prizes >= 0) & (prizes < len(PRIZE_CODES))
        # A win under a prize code that is not a symbol (illegal) is counted and pays nothing.
        value = PRIZE_VALUES[np.where(ok_prize, prizes, 0)] * ok_prize
        prize += multiplier * (value * m).sum(axis=1)
        wins += np.count_nonzero(m, axis=1)
        won[name] = _tally(np.where(m & ok_prize, prizes, -1), len(PRIZE_CODES))
        match[name] = m
        bad_prize_code = np.concatenate([bad_prize_code, ~ok_prize], axis=1)
        # Section 5, Decision (numbers within an area): the k matching spots use each LUCKY NUMBER
        # floor(k/5) or ceil(k/5) times, and the non-matching numbers are pairwise distinct.
        k = np.count_nonzero(m, axis=1)
        uneven[name] = ((hits < (k // 5)[:, None]) | (hits > (-(-k // 5))[:, None])).any(axis=1)
        keyed = np.sort(np.where(m, _SENTINELS, numbers), axis=1)
        repeat[name] = (keyed[:, 1:] == keyed[:, :-1]).any(axis=1)

    # Section 4.3: a WILD BONUS spot showing a WIN$ symbol (codes 8..10) wins its amount.
    ok_bonus = (bonus >= 0) & (bonus < len(BONUS_CODES))
    bonus_win = ok_bonus & (bonus >= FIRST_WIN_BONUS)
    prize += BONUS_VALUES[np.where(ok_bonus, bonus, 0)].sum(axis=1)
    wins += bonus_win.sum(axis=1)
    won_bonus = _tally(np.where(bonus_win, bonus, -1), len(BONUS_CODES))

    # Section 5, game rules.
    numbers_all = np.concatenate([lucky, areas["YOUR"][0], areas["WILD"][0]], axis=1)
    bad_number = ~valid_number[np.clip(numbers_all, 0, 255)] | (numbers_all < 0) | (numbers_all > 255)
    lucky_sorted = np.sort(lucky, axis=1)
    dup_lucky = (lucky_sorted[:, 1:] == lucky_sorted[:, :-1]).any(axis=1)
    too_many = wins > MAX_WINS
    wild_free = match["WILD"] & (areas["WILD"][1] == FREE)

    if "tier" in table.columns:
        lookup = {t: i for i, t in enumerate(TIER_IDS)}
        tier = (table["tier"].replace_strict(lookup, default=_UNKNOWN_TIER, return_dtype=pl.Int16)
                .fill_null(_UNKNOWN_TIER).to_numpy().astype(np.int64))
        unknown = tier == _UNKNOWN_TIER
        t = np.where(unknown, 0, tier)
        off_your = ~unknown & (won["YOUR"] != EXPECTED_YOUR[t]).any(axis=1)
        off_wild = ~unknown & (won["WILD"] != EXPECTED_WILD[t]).any(axis=1)
        off_bonus = ~unknown & (won_bonus != EXPECTED_BONUS[t]).any(axis=1)
    else:
        tier = np.full(n, _UNKNOWN_TIER, dtype=np.int64)
        unknown = off_your = off_wild = off_bonus = np.zeros(n, dtype=bool)

    prizes_all = np.concatenate([areas["YOUR"][1], areas["WILD"][1]], axis=1)
    names = LazyColumn(table, "tier")

    def listed(what: str, mask: np.ndarray, columns: Sequence[str], values: np.ndarray):
        return lambda r: what + ", ".join(
            f"{c}={show(v)}" for c, v, bad in zip(columns, values[r].tolist(), mask[r].tolist(), strict=True)
            if bad)

    reasons = Reasons()
    reasons.add(bad_number.any(axis=1), listed("not a number of the game: ", bad_number, LUCKY + YOUR + WILD,
                                               numbers_all))
    reasons.add(dup_lucky, lambda r: "LUCKY NUMBERS not pairwise distinct: "
                + " ".join(show(v) for v in lucky[r]))
    reasons.add(bad_prize_code.any(axis=1), listed("prize code not in 0..10: ", bad_prize_code,
                                                   YOUR_PRIZE + WILD_PRIZE, prizes_all))
    reasons.add((~ok_bonus).any(axis=1), listed("bonus code not in 0..10: ", ~ok_bonus, BONUS, bonus))
    # The three WILD BONUS spots never show one play symbol three times (it reads as a match).
    first = bonus[:, 0]
    triple = (first >= 0) & (first < FIRST_WIN_BONUS) & (bonus == first[:, None]).all(axis=1)
    reasons.add(triple, lambda r: (f"WILD BONUS shows {BONUS_CODES[int(bonus[r, 0])]} three times "
                                         "(a match that wins nothing)"))
    reasons.add(too_many, lambda r: f"{wins[r]} wins (at most {MAX_WINS})")
    reasons.add(wild_free.any(axis=1),
                lambda r: "WILD win on FREE: " + ", ".join(WILD[j] for j in np.flatnonzero(wild_free[r])))
    reasons.add(unknown, lambda r: f"unknown tier {names[r]!r}")
    for name, off, got, want, codes in (("YOUR", off_your, won["YOUR"], EXPECTED_YOUR, PRIZE_CODES),
                                        ("WILD", off_wild, won["WILD"], EXPECTED_WILD, PRIZE_CODES),
                                        ("BONUS", off_bonus, won_bonus, EXPECTED_BONUS, BONUS_CODES)):
        reasons.add(off, lambda r, name=name, got=got, want=want, codes=codes: (
            f"{name} wins [{_codes(got[r], codes)}], "
            f"tier {names[r]!r} wins [{_codes(want[tier[r]], codes)}]"))
    for name, area in (("YOUR", "YOUR NUMBERS"), ("WILD", "YOUR WILD NUMBERS")):
        reasons.add(repeat[name], lambda r, area=area: f"{area} repeat a non-matching number")
        reasons.add(uneven[name], lambda r, name=name, area=area: (
            f"{area}: {np.count_nonzero(match[name][r])} matches use the LUCKY NUMBERS unevenly"))
    illegal = reasons.illegal()
    return Evaluation(prize_cents=prize, wins=wins, illegal=illegal)






def _tally(codes: np.ndarray, k: int) -> np.ndarray:
    """(n, k) counts of each code 0..k-1 in every row of `codes` (entries outside 0..k-1 not counted)."""
    n = len(codes)
    keep = (codes >= 0) & (codes < k)
    flat = np.where(keep, codes, k) + (k + 1) * np.arange(n)[:, None]
    return np.bincount(flat.ravel(), minlength=n * (k + 1)).reshape(n, k + 1)[:, :k]


def _codes(counts: np.ndarray, codes: Sequence[str]) -> str:
    """Spec codes of a multiset given as counts per layout code, e.g. '5 5 WIN10'."""
    return " ".join(code for code, c in zip(codes, counts.tolist(), strict=True) for _ in range(c))




