"""The `area_match` eInstant style: re-evaluates every share from its layout columns.

Written from docs/styles/area_match.md alone (sections 1 to 5); every parameter is the manifest's
`play` entry (section 1), nothing of a game is here. A pool with k play areas has, for every area i
in 0 .. k-1, the symbol codes `a{i}_s0 .. a{i}_s{S-1}`, the revealed amount `a{i}_amount` (cents) and
the bonus columns `a{i}_bonus`, `a{i}_bonus_result`, `a{i}_bonus_prizes`. An area wins its amount times
the `match_pays` entry of its match (the wild counts for every matchable symbol), else N times its
amount for a bonus game of N prizes, else 0. A share pays the sum of its areas; its number of wins is
its number of winning areas. A share must not show what reads as a win it is not paid (rules 10 and
11): as many of one bonus symbol as the smallest winning match, a bonus trigger with a second bonus
symbol of a kind, or the bonus key in one area with a bonus game's symbol in another. Rules 4 to 7
judge the bonus columns against the game `a{i}_bonus` names (section 5); the area's win follows its
symbols' trigger and `a{i}_bonus_prizes` (section 3). The play entry is refused as section 1 lists
(a bonus key that is the wild, an amount multiplier that is not a plain decimal, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import Evaluation, Reasons, might_wrap, read_column

__all__ = ["Play", "evaluate", "layout_columns", "play_from_spec", "read_play"]

STYLE = "area_match"
NO_BONUS = 0
DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")  # a plain decimal (a sign only to be refused as not positive)


@dataclass(frozen=True)
class Play:
    """The play entry, checked (section 1)."""

    spots: int
    symbols: tuple[str, ...]  # code c is symbols[c - 1]
    wild: int
    key: int
    match: tuple[tuple[int, int], ...]  # (count, times), counts ascending
    games: tuple[dict[str, Any], ...]  # {"code", "name", "symbol", and "chances" or "grid"}
    amounts: tuple[Fraction, ...]

    @property
    def matchable(self) -> tuple[int, ...]:
        bonus = {self.key, *(g["symbol"] for g in self.games)}
        return tuple(c for c in range(1, len(self.symbols) + 1) if c != self.wild and c not in bonus)


def _bad(what: str) -> ValueError:
    return ValueError(f"manifest play entry ({STYLE}): {what}")


def _int(doc: dict[str, Any], key: str, lo: int, hi: int, where: str) -> int:
    v = doc.get(key) if isinstance(doc, dict) else None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise _bad(f"{where}{key} must be a whole number {lo}..{hi}, not {v!r}")
    return v


def read_play(play: dict[str, Any]) -> Play:
    """Check the play entry as section 1 states it; ValueError naming the field."""
    if not isinstance(play, dict) or play.get("style") != STYLE:
        raise _bad(f"style is {play.get('style') if isinstance(play, dict) else play!r}, not {STYLE!r}")
    symbols = play.get("symbols")
    if (not isinstance(symbols, list) or not 1 <= len(symbols) <= 255
            or not all(isinstance(s, str) for s in symbols)):
        raise _bad("symbols must list 1 to 255 symbol names")
    n = len(symbols)
    spots = _int(play, "spots", 1, 16, "")
    wild = _int(play, "wild", 1, n, "")
    key = _int(play, "bonus_key", 1, n, "")
    if key == wild:  # section 1
        raise _bad("bonus_key must not be the wild")
    raw = play.get("match_pays")
    if not isinstance(raw, list) or not raw:
        raise _bad("match_pays must be a non-empty list")
    match = tuple((_int(m, "count", 1, spots, f"match_pays[{j}]."),
                   _int(m, "times", 1, 255, f"match_pays[{j}].")) for j, m in enumerate(raw))
    if [c for c, _ in match] != sorted({c for c, _ in match}):
        raise _bad("match_pays counts must be ascending and distinct")
    raw = play.get("bonus_games")
    if not isinstance(raw, list) or not raw:
        raise _bad("bonus_games must be a non-empty list")
    games = []
    taken = {wild, key}
    for j, g in enumerate(raw):
        where = f"bonus_games[{j}]."
        if _int(g, "code", 1, 255, where) != j + 1 or not isinstance(g.get("name"), str):
            raise _bad(f"{where}code must be {j + 1} and name a text")
        symbol = _int(g, "symbol", 1, n, where)
        if symbol in taken:
            raise _bad(f"{where}symbol {symbol} is the wild, the bonus key or another game's symbol")
        taken.add(symbol)
        if ("chances" in g) == ("grid" in g):
            raise _bad(f"{where} has either chances or grid")
        if "chances" in g:
            _int(g, "chances", 1, 8, where)
        elif (not isinstance(g["grid"], list) or not 1 <= len(g["grid"]) <= 255
              or any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 255 for x in g["grid"])):
            raise _bad(f"{where}grid must list 1 to 255 whole numbers 1..255")
        games.append(g)
    raw = play.get("amount_multipliers")
    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) for x in raw):
        raise _bad("amount_multipliers must be a non-empty list of decimal texts")
    if not all(DECIMAL.fullmatch(x) for x in raw):  # section 1: plain decimals, no exponent or fraction
        raise _bad("amount_multipliers: not a decimal number")
    amounts = tuple(Fraction(x) for x in raw)
    if any(a <= 0 for a in amounts):
        raise _bad("amount_multipliers must be positive")
    return Play(spots, tuple(symbols), wild, key, match, tuple(games), amounts)


def play_from_spec(doc: dict[str, Any]) -> dict[str, Any]:
    """The play entry section 1 derives from a spec (its TOML as read): step 5 holds the manifest's to it."""
    symbols = [s["code"] for s in doc["symbols"]]
    code = {c: j + 1 for j, c in enumerate(symbols)}
    lay = doc["layout"]
    games = []
    for j, g in enumerate(lay["bonus_games"]):
        entry = {"code": j + 1, "name": g["name"], "symbol": code[g["symbol"]]}
        entry.update({"chances": g["chances"]} if "chances" in g else {"grid": list(g["grid"])})
        games.append(entry)
    amounts = sorted(Decimal(x) for x in lay["amount_multipliers"])
    return {"style": STYLE, "spots": doc["play"]["spots_per_area"], "symbols": symbols,
            "wild": code[lay["wild"]], "bonus_key": code[lay["bonus_key"]],
            "match_pays": [{"count": m["count"], "times": m["times"]} for m in lay["match_pays"]],
            "bonus_games": games, "amount_multipliers": [f"{x.normalize():f}" for x in amounts]}


def _area_columns(i: int, spots: int) -> dict[str, pl.DataType]:
    columns: dict[str, pl.DataType] = {f"a{i}_s{j}": pl.UInt8() for j in range(spots)}
    columns[f"a{i}_amount"] = pl.Int64()
    columns[f"a{i}_bonus"] = pl.UInt8()
    columns[f"a{i}_bonus_result"] = pl.UInt8()
    columns[f"a{i}_bonus_prizes"] = pl.UInt8()
    return columns


def layout_columns(pool: dict[str, Any], play: dict[str, Any]) -> dict[str, pl.DataType]:
    """The contract's layout columns (section 2) of a pool and their dtypes, in file order."""
    spots = read_play(play).spots
    columns: dict[str, pl.DataType] = {}
    for i in range(int(pool["play_areas"])):
        columns.update(_area_columns(i, spots))
    return columns


def _int_column(table: pl.DataFrame, name: str, reasons: Reasons, code: bool = False) -> np.ndarray:
    """A column as int64; a null is reported as illegal and read as 0. A `code` column stored as uint8,
    its dtype in section 2, is read as it is."""
    read_column(name)
    if name not in table.columns:
        raise ValueError(f"{STYLE}: layout column {name!r} missing")
    series = table[name]
    if not series.dtype.is_integer():
        raise ValueError(f"{STYLE}: layout column {name!r} has dtype {series.dtype}, not integer")
    if series.null_count():
        reasons.add(series.is_null().to_numpy(), lambda r: f"{name} is null")
        series = series.fill_null(0)
    values = series.to_numpy()
    return values if code and values.dtype == np.uint8 else values.astype(np.int64, copy=False)


def _check_pool(table: pl.DataFrame, pool: dict[str, Any], play: dict[str, Any]) -> tuple[int, int]:
    """The pool's number of areas k and denomination D (cents); its columns must be those of k areas."""
    areas = int(pool["play_areas"])
    denomination = int(pool["denomination_cents"])
    if areas < 1:
        raise ValueError(f"{STYLE}: pool {pool.get('id')!r}: play_areas {areas} < 1")
    if "price_cents" in pool and int(pool["price_cents"]) != denomination * areas:
        raise ValueError(f"{STYLE}: pool {pool.get('id')!r}: price_cents {pool['price_cents']} "
                         f"!= denomination_cents {denomination} x play_areas {areas}")
    expected = set(layout_columns(pool, play))
    foreign = [c for c in table.columns if c not in expected and re.match(r"a\d+_", c)]
    if foreign:
        raise ValueError(f"{STYLE}: pool {pool.get('id')!r} has {areas} play areas of "
                         f"{read_play(play).spots} spots but the table has columns {foreign[:4]}")
    return areas, denomination


def _count(codes: np.ndarray, code: int) -> np.ndarray:
    """Per row (column of the (S, n) `codes`), how many of its S <= 16 spots show `code`, as uint8."""
    counted: np.ndarray = (codes == code).sum(axis=0, dtype=np.uint8)
    return counted


def _largest(values: np.ndarray) -> int:
    """The largest magnitude among `values` (0 if none), exactly."""
    return max(abs(int(values.min())), abs(int(values.max()))) if len(values) else 0


def _scored(result: np.ndarray, chances: int) -> np.ndarray:
    """The number of set bits among the low `chances` (<= 8) of each bonus result: counted in one pass
    when the column is stored as uint8 (its dtype in section 2), else bit by bit (an int64 column may
    hold negative values)."""
    if result.dtype == np.uint8:
        counted: np.ndarray = np.bitwise_count(result & np.uint8((1 << chances) - 1))
        return counted
    return sum((result >> b) & 1 for b in range(chances))  # type: ignore[return-value]


def evaluate(table: pl.DataFrame, pool: dict[str, Any], play: dict[str, Any]) -> Evaluation:
    """Prize (cents) and number of winning areas of every row, and every row breaking section 5.

    The reasons of an illegal row list every broken rule, area by area (rules 1 to 8 and 10), then
    the share's rules 11 and 9, joined with "; ".
    """
    p = read_play(play)
    areas, denomination = _check_pool(table, pool, play)
    n_codes = len(p.symbols)
    name = dict(enumerate(p.symbols, start=1))
    game_name = {NO_BONUS: "no bonus", **{g["code"]: g["name"] for g in p.games}}
    n = table.height
    reasons = Reasons()
    cents = (x * denomination for x in p.amounts)
    # an x x D that is not whole cents, or more than an int64 amount column holds, is no amount
    legal_amounts = sorted({int(v) for v in cents if v.denominator == 1 and v < 2**63})
    smallest = p.match[0][0]
    # the match_pays times of every match (a uint8 count of at most 2 S): the largest count not above it
    pays = np.zeros(256, dtype=np.int64)
    for count, t in p.match:
        pays[np.arange(256) >= count] = t
    prize = np.zeros(n, dtype=np.int64)
    wins = np.zeros(n, dtype=np.int64)
    area_wins: list[np.ndarray] = []
    factors: list[tuple[np.ndarray, np.ndarray]] = []  # per area: (times, amount), its win their product
    shows: list[dict[int, np.ndarray]] = []  # per area: whether it shows each bonus symbol

    for i in range(areas):
        spots = [_int_column(table, f"a{i}_s{j}", reasons, code=True) for j in range(p.spots)]
        amount = _int_column(table, f"a{i}_amount", reasons)
        bonus = _int_column(table, f"a{i}_bonus", reasons, code=True)
        result = _int_column(table, f"a{i}_bonus_result", reasons, code=True)  # uint8 as stored, else int64
        prizes = _int_column(table, f"a{i}_bonus_prizes", reasons, code=True)

        # Section 4 (`codes` is the area's (S, n) matrix of symbol codes). Counts of at most S <= 16
        # spots are summed as uint8: a sixth of the memory traffic of int64, the same numbers.
        codes = np.stack(spots)
        best = np.zeros(n, dtype=np.uint8)
        for code in p.matchable:
            np.maximum(best, _count(codes, code), out=best)
        match = _count(codes, p.wild) + best
        counts = {c: _count(codes, c) for c in (p.key, *(g["symbol"] for g in p.games))}
        has = {c: v > 0 for c, v in counts.items()}
        shows.append(has)
        trigger = np.full(n, NO_BONUS, dtype=np.uint8)  # a game's code, 1..255
        triggered: np.ndarray = np.zeros(n, dtype=np.uint8 if len(p.games) < 255 else np.int64)  # firing
        for g in reversed(p.games):  # the first game listed wins a tie (which rule 2 rejects anyway)
            fires = has[p.key] & has[g["symbol"]]
            trigger[fires] = g["code"]
            triggered += fires
        matched = match >= smallest
        times = np.where(matched, pays[match], np.where(trigger != NO_BONUS, prizes, 0))
        win = (times * amount).astype(np.int64, copy=False)
        area_wins.append(win)
        factors.append((times, amount))

        # Rule 1: symbol codes 1..n.
        for j, s in enumerate(spots):
            reasons.add((s < 1) | (s > n_codes), lambda r, i=i, j=j, s=s: (
                f"a{i}_s{j} has code {s[r]}, not a symbol code 1..{n_codes}"))
        # Rule 2: never the bonus key with the symbols of two bonus games.
        reasons.add(triggered >= 2, lambda r, i=i, t=triggered: (
            f"area {i}: {name[p.key]} with the symbols of {t[r]} bonus games"))
        # Rule 3: the bonus column is the area's trigger.
        reasons.add(bonus != trigger, lambda r, i=i, bonus=bonus, trigger=trigger: (
            f"area {i}: a{i}_bonus is {bonus[r]} but its symbols trigger "
            f"{game_name[int(trigger[r])]} ({trigger[r]})"))
        # Rule 4: no bonus, no result and no prizes.
        reasons.add((bonus == NO_BONUS) & ((result != 0) | (prizes != 0)),
                    lambda r, i=i, result=result, prizes=prizes: (
                        f"area {i}: no bonus but a{i}_bonus_result {result[r]}, "
                        f"a{i}_bonus_prizes {prizes[r]}"))
        # Rule 7 (before 5 and 6, which it implies): a bonus wins at least one prize.
        reasons.add((bonus != NO_BONUS) & (prizes == 0), lambda r, i=i, bonus=bonus: (
            f"area {i}: {game_name.get(int(bonus[r]), f'bonus {bonus[r]}')} bonus with 0 prizes"))
        for g in p.games:
            of_g = bonus == g["code"]
            if "chances" in g:  # Rule 5: a scoring mask whose set bits are the prizes.
                top = 2 ** g["chances"] - 1
                bad = of_g & ((result < 1) | (result > top))
                reasons.add(bad, lambda r, i=i, g=g, top=top, result=result: (
                    f"area {i}: {g['name']} a{i}_bonus_result {result[r]} not a scoring mask 1..{top}"))
                scored = _scored(result, g["chances"])
                reasons.add(of_g & ~bad & (prizes != 0) & (scored != prizes),
                            lambda r, i=i, g=g, result=result, prizes=prizes, scored=scored: (
                                f"area {i}: {g['name']} mask {result[r]} scores {scored[r]}, "
                                f"a{i}_bonus_prizes is {prizes[r]}"))
            else:  # Rule 6: a grid section whose prizes are the prizes.
                grid = np.array(g["grid"], dtype=np.uint8)  # prizes 1..255 (read_play)
                bad = of_g & ((result < 0) | (result > len(grid) - 1))
                reasons.add(bad, lambda r, i=i, g=g, result=result: (
                    f"area {i}: {g['name']} a{i}_bonus_result {result[r]} not a grid section "
                    f"0..{len(g['grid']) - 1}"))
                won = np.take(grid, np.clip(result, 0, len(grid) - 1))
                reasons.add(of_g & ~bad & (prizes != 0) & (won != prizes),
                            lambda r, i=i, g=g, result=result, prizes=prizes, won=won: (
                                f"area {i}: {g['name']} section {result[r]} wins {won[r]}, "
                                f"a{i}_bonus_prizes is {prizes[r]}"))
        # Rule 8: a positive amount x x D with x an amount multiplier.
        reasons.add(amount <= 0, lambda r, i=i, amount=amount: f"area {i}: a{i}_amount {amount[r]} not > 0")
        reasons.add((amount > 0) & ~pl.Series(amount).is_in(legal_amounts).to_numpy(),
                    lambda r, i=i, amount=amount: (
                        f"area {i}: a{i}_amount {amount[r]} is not an amount multiplier x {denomination}"))
        # Rule 10: never as many of one bonus symbol as the smallest winning match; a trigger shows
        # one bonus key and one symbol of its game; no area both matches and triggers.
        for c, k in counts.items():
            reasons.add(k >= smallest, lambda r, i=i, c=c, k=k: (
                f"area {i}: {k[r]} {name[c]} symbols match and win nothing"))
        for c, k in counts.items():
            reasons.add((trigger != NO_BONUS) & (k >= 2) & (k < smallest), lambda r, i=i, c=c, k=k: (
                f"area {i}: a bonus trigger with {k[r]} {name[c]} symbols"))
        reasons.add(matched & (trigger != NO_BONUS), lambda r, i=i: (
            f"area {i}: a match and a bonus trigger together"))

    # Section 4 sums the area wins exactly: rows whose amounts int64 may not hold are recomputed. Where
    # the areas' largest factors bound every row's sum below 2^61, no estimate comes near 2^62: none is made.
    wide = np.zeros(n, dtype=bool)
    if sum(_largest(by) * _largest(amount_) for by, amount_ in factors) >= 2**61:
        total = np.zeros(n)
        for by, amount_ in factors:  # one area's estimate at a time; their sum in the same order
            estimate = by.astype(np.float64) * amount_
            wide |= might_wrap(estimate)
            total += estimate
        wide |= might_wrap(total)
    if wide.any():
        area_wins = [w.astype(object) for w in area_wins]
        for r in np.flatnonzero(wide).tolist():
            for exact, (by, amount_) in zip(area_wins, factors, strict=True):
                exact[r] = int(by[r]) * int(amount_[r])
    for win in area_wins:
        prize = prize + win
        wins += win > 0

    # Rule 11: no bonus key in one area with a bonus game's symbol in another.
    for i in range(areas):
        for j in range(areas):
            for g in p.games:
                if i != j:
                    reasons.add(shows[i][p.key] & shows[j][g["symbol"]], lambda r, i=i, j=j, g=g: (
                        f"{name[p.key]} in area {i} and {name[g['symbol']]} in area {j}"))

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
