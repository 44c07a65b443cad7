"""Wild Side (K.A.R. 111-4-3762): LUCKY NUMBERS, YOUR NUMBERS, YOUR WILD NUMBERS (5x), WILD BONUS.

The layout contract is `specs/wild_side.md`. Columns (all uint8): `lucky_0..4`, `your_0..11`,
`your_prize_0..11`, `wild_0..11`, `wild_prize_0..11` (numbers as their value, prize symbols as
codes 0..10 in the spec's order) and `bonus_0..2` (codes 0..7 bonus play symbols, 8..10 WIN$10,
WIN$25, WIN$50). Each tier's `your`, `wild` and `bonus` lists are laid out exactly: those prize
symbols sit below numbers that match a lucky number, at uniformly random places; every other number
is a non-lucky number. Lucky numbers are drawn apart from the tier; decoy prize symbols are drawn
so that the prize symbol of any one spot has the same distribution on winners and losers.
"""

from __future__ import annotations

import numpy as np

from poolgen.errors import SpecError
from poolgen.rng import Stream, integers_by_key, row_permutations
from poolgen.spec import Pool, Spec

__all__ = ["BONUS_CODES", "NUMBERS", "PRIZE_CODES", "check_structure", "lay_out"]

NUMBERS = (3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28,
           29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51,
           52, 53)
PRIZE_CODES = ("FREE", "2", "5", "10", "15", "25", "50", "100", "500", "1000", "25000")
BONUS_CODES = ("GLDBAR", "BILL", "PGYBNK", "COIN", "POTGLD", "CLOVER", "DIAMND", "HRSHOE",
               "WIN10", "WIN25", "WIN50")
BONUS_PLAY = 8  # bonus codes below this are play symbols (no win)
LUCKY, AREA, BONUS = 5, 12, 3
MAX_WINS = 21


def _check_symbols(spec: Spec) -> None:
    f = spec.path.name
    numbers = tuple(int(s.code) if s.code.isascii() and s.code.isdecimal() and len(s.code) <= 3 else -1
                    for s in spec.symbols_in("number"))
    if numbers != NUMBERS:
        raise SpecError(f"{f}: symbols: wild_side layouts need the 46 numbers 03 .. 53 of "
                        f"wild_side.md, got {len(numbers)} others")
    for group, want in (("prize", PRIZE_CODES), ("bonus_play", BONUS_CODES[:BONUS_PLAY]),
                        ("bonus_prize", BONUS_CODES[BONUS_PLAY:])):
        got = tuple(s.code for s in spec.symbols_in(group))
        if got != want:
            raise SpecError(f"{f}: symbols: group {group!r} must be {', '.join(want)} in that "
                            f"order (wild_side.md), got {', '.join(got)}")
    play = spec.play
    for key, want in (("lucky_numbers", LUCKY), ("your_numbers", AREA),
                      ("your_wild_numbers", AREA), ("bonus_spots", BONUS), ("max_wins", MAX_WINS),
                      ("wild_multiplier", 5)):
        if play.get(key) != want:
            raise SpecError(f"{f}: play.{key}: wild_side layouts need {want}, "
                            f"got {play.get(key)!r}")


def _decoy_weights(spec: Spec) -> np.ndarray:
    f = spec.path.name
    raw = spec.layout.get("decoy_prize_weights")
    if not isinstance(raw, dict):
        raise SpecError(f"{f}: layout.decoy_prize_weights: missing table of weights by prize code")
    if set(raw) != set(PRIZE_CODES):
        raise SpecError(f"{f}: layout.decoy_prize_weights: needs exactly the prize codes "
                        f"{', '.join(PRIZE_CODES)}")
    for code, w in raw.items():
        if isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= 1_000_000:
            raise SpecError(f"{f}: layout.decoy_prize_weights.{code}: must be a whole number "
                            f"1 .. 1000000 (every symbol must appear), not {w!r}")
    unknown = set(spec.layout) - {"decoy_prize_weights"}
    if unknown:
        raise SpecError(f"{f}: layout.{sorted(unknown)[0]}: unknown field")
    return np.array([raw[c] for c in PRIZE_CODES], dtype=np.int64)


def _tier_table(spec: Spec, pool: Pool) -> dict[str, np.ndarray]:
    """Per pool tier: padded prize codes won in each area and the number of wins there."""
    f = spec.path.name
    by_id = {t.id: t for t in spec.tiers}
    n = len(pool.tiers)
    out = {
        "your": np.zeros((n, AREA), dtype=np.int64), "k_your": np.zeros(n, dtype=np.int64),
        "wild": np.zeros((n, AREA), dtype=np.int64), "k_wild": np.zeros(n, dtype=np.int64),
        "bonus": np.zeros((n, BONUS), dtype=np.int64), "k_bonus": np.zeros(n, dtype=np.int64),
    }
    for i, pt in enumerate(pool.tiers[1:], start=1):
        d = by_id[pt.id].data
        where = f"{f}: tiers[{i - 1}]"
        for key, table, size in (("your", PRIZE_CODES, AREA), ("wild", PRIZE_CODES, AREA),
                                 ("bonus", BONUS_CODES[BONUS_PLAY:], BONUS)):
            codes = d.get(key, [])
            if len(codes) > size:
                raise SpecError(f"{where}.{key}: {len(codes)} wins, only {size} spots")
            if any(c not in table for c in codes):
                raise SpecError(f"{where}.{key}: unknown prize symbol in {codes!r}")
            offset = BONUS_PLAY if key == "bonus" else 0
            out[key][i, :len(codes)] = [table.index(c) + offset for c in codes]
            out[f"k_{key}"][i] = len(codes)
        if "FREE" in d.get("wild", []):
            raise SpecError(f"{where}.wild: a FREE ticket cannot be won 5x (wild_side.md)")
        wins = out["k_your"][i] + out["k_wild"][i] + out["k_bonus"][i]
        if wins == 0 or wins > MAX_WINS:
            raise SpecError(f"{where}: {wins} wins; a winning tier has 1 .. {MAX_WINS}")
    return out


def _value_cents(spec: Spec) -> tuple[np.ndarray, np.ndarray]:
    prize = np.array([spec.symbol(c).value_cents for c in PRIZE_CODES], dtype=np.int64)
    bonus = np.array([0] * BONUS_PLAY + [spec.symbol(c).value_cents
                                         for c in BONUS_CODES[BONUS_PLAY:]], dtype=np.int64)
    return prize, bonus


def _prize_cents(spec: Spec, table: dict[str, np.ndarray], tier: int) -> int:
    prize, bonus = _value_cents(spec)
    your = int(prize[table["your"][tier, :table["k_your"][tier]]].sum())
    wild = int(prize[table["wild"][tier, :table["k_wild"][tier]]].sum())
    bon = int(bonus[table["bonus"][tier, :table["k_bonus"][tier]]].sum())
    return your + 5 * wild + bon


def _area(stream: Stream, tiers: np.ndarray, lucky: np.ndarray, decoys: np.ndarray,
          won: np.ndarray, k: np.ndarray, weights_win: np.ndarray,
          weights_lose: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Number indices and prize codes of one 12-spot area, spots in display order."""
    n = tiers.size
    place = row_permutations(stream, n, AREA)  # slot i is shown at spot place[:, i]
    order = row_permutations(stream, n, LUCKY)  # winning slot i shows lucky[order[i mod 5]]
    win = tiers > 0
    cum_win, cum_lose = np.cumsum(weights_win), np.cumsum(weights_lose)
    bounds = np.array([cum_lose[-1], cum_win[-1]])  # a loser's spot draws below bounds[0], a winner's [1]
    draw = integers_by_key(stream, bounds, np.broadcast_to(win[:, None].astype(np.intp), (n, AREA)))
    decoy_prize = np.empty_like(draw)
    decoy_prize[win] = np.searchsorted(cum_win, draw[win], side="right")
    decoy_prize[~win] = np.searchsorted(cum_lose, draw[~win], side="right")
    slot = np.arange(AREA)[None, :]
    kk = k[tiers][:, None]
    winning = slot < kk
    which = np.take_along_axis(order, np.broadcast_to(slot % LUCKY, (n, AREA)), axis=1)
    lucky_pick = np.take_along_axis(lucky, which, axis=1)
    decoy_pick = np.take_along_axis(decoys, np.maximum(slot - kk, 0), axis=1)
    slot_number = np.where(winning, lucky_pick, decoy_pick)
    slot_prize = np.where(winning, won[tiers], decoy_prize)
    number = np.empty_like(slot_number)
    prize = np.empty_like(slot_prize)
    np.put_along_axis(number, place, slot_number, axis=1)
    np.put_along_axis(prize, place, slot_prize, axis=1)
    return number, prize


def _play_triples() -> np.ndarray:
    """(2, 512, 3): every ordered triple of play symbols (codes 0..7) in lexicographic order, then
    those that are not one symbol three times (504, padded with zeros)."""
    grid = np.stack(np.meshgrid(*[np.arange(BONUS_PLAY)] * BONUS, indexing="ij"), axis=-1).reshape(-1, BONUS)
    mixed = grid[~(grid == grid[:, :1]).all(axis=1)]
    out = np.zeros((2, len(grid), BONUS), dtype=np.int64)
    out[0], out[1, :len(mixed)] = grid, mixed
    return out


def lay_out(spec: Spec, pool: Pool, tiers: np.ndarray, stream: Stream) -> dict[str, np.ndarray]:
    """The 56 spots of every ticket (contract: specs/wild_side.md)."""
    _check_symbols(spec)
    w = _decoy_weights(spec)
    table = _tier_table(spec, pool)
    tiers = np.asarray(tiers, dtype=np.int64)
    n = tiers.size
    counts = np.bincount(tiers, minlength=len(pool.tiers))
    numbers = np.array(NUMBERS, dtype=np.uint8)

    def lose_weights(area: str) -> np.ndarray:
        """u_area(p) of the contract: the winners' per-spot prize symbol mix, as weights."""
        u = np.zeros(len(PRIZE_CODES), dtype=np.int64)
        for t in range(1, len(pool.tiers)):
            k = int(table[f"k_{area}"][t])
            c = np.bincount(table[area][t, :k], minlength=len(PRIZE_CODES))
            u += int(counts[t]) * (c * int(w.sum()) + (AREA - k) * w)
        return u if u.sum() else w

    # Lucky numbers and the YOUR decoys: the first 5 + 12 of a random order of the 46 numbers.
    first = row_permutations(stream, n, len(NUMBERS))
    lucky = first[:, :LUCKY]
    your, your_prize = _area(stream, tiers, lucky, first[:, LUCKY:LUCKY + AREA], table["your"],
                             table["k_your"], w, lose_weights("your"))
    # The WILD decoys: the first 12 of a fresh random order of the 41 non-lucky numbers.
    again = row_permutations(stream, n, len(NUMBERS) - LUCKY)[:, :AREA]
    wild_decoys = np.take_along_axis(first[:, LUCKY:], again, axis=1)
    wild, wild_prize = _area(stream, tiers, lucky, wild_decoys, table["wild"],
                             table["k_wild"], w, lose_weights("wild"))
    # WILD BONUS: the tier's WIN$ symbols at random places, play symbols elsewhere; a ticket without
    # a bonus win never shows one play symbol three times (it would read as a match: section 5).
    place = row_permutations(stream, n, BONUS)
    none_won = (table["k_bonus"][tiers] == 0).astype(np.int64)
    triples = _play_triples()
    bounds = np.array([BONUS_PLAY ** BONUS, BONUS_PLAY ** BONUS - BONUS_PLAY])  # 512 and 504 triples
    plays = triples[none_won, integers_by_key(stream, bounds, none_won)]
    slot_bonus = np.where(np.arange(BONUS)[None, :] < table["k_bonus"][tiers][:, None],
                          table["bonus"][tiers], plays)
    bonus = np.empty_like(slot_bonus)
    np.put_along_axis(bonus, place, slot_bonus, axis=1)

    out: dict[str, np.ndarray] = {}
    for j in range(LUCKY):
        out[f"lucky_{j}"] = numbers[lucky[:, j]]
    for name, num, prz in (("your", your, your_prize), ("wild", wild, wild_prize)):
        for j in range(AREA):
            out[f"{name}_{j}"] = numbers[num[:, j]]
        for j in range(AREA):
            out[f"{name}_prize_{j}"] = prz[:, j].astype(np.uint8)
    for j in range(BONUS):
        out[f"bonus_{j}"] = bonus[:, j].astype(np.uint8)
    return out


def check_structure(spec: Spec, result) -> None:
    """Every tier can be laid out: known symbols, areas big enough, wins adding up to the prize."""
    try:
        _check_symbols(spec)
        _decoy_weights(spec)
        pool = spec.pools[0]
        table = _tier_table(spec, pool)
    except SpecError as exc:
        result.problem("layout", "wild_side", "a layable spec", str(exc))
        return
    for i, pt in enumerate(pool.tiers[1:], start=1):
        laid = _prize_cents(spec, table, i)
        if laid != pt.prize_cents:
            result.problem("(i)", f"tier {pt.id} layout", f"prize {pt.prize_cents} cents",
                           f"the laid-out wins pay {laid} cents")
