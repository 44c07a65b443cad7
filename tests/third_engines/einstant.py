"""A third engine for the eInstant styles `prize_legend_duel` and `area_match`, written from the
regulations (K.A.R. 111-23-22 and 111-23-23), docs/styles/prize_legend_duel.md, area_match.md,
play.md, docs/pool-files.md and docs/manifest.md alone.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): given a
manifest's `play` entry, the pool's manifest entry and the pool table, `judge` gives every row's
prize and number of wins, and the reasons an illegal row is refused, worded as the contracts word
them. An entry or a pool the contract says to refuse raises ValueError."""

from __future__ import annotations

import re
from fractions import Fraction

import polars as pl

Verdict = tuple[str, int, int]  # (reasons joined with "; ", "" if legal; prize in cents; number of wins)
PLAIN = re.compile(r"[0-9]+(\.[0-9]+)?")  # area_match.md section 1: digits, optionally a point and digits
LEGEND = re.compile(r"(?=.*[0-9])[0-9]*\.?[0-9]*")  # prize_legend_duel.md 2: digits, at most one point
UNPLAYED, LOSE, TIE, WIN, MULTIPLIER = range(5)
NAMES = ("UNPLAYED", "LOSE", "TIE", "WIN", "MULTIPLIER")
ABSENT = object()  # a common column the table does not have


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _cents(values: list[str], denomination: int) -> set[int]:
    """Every `v x D` that is whole cents (a value that is not gives no amount of the pool)."""
    out = set()
    for v in values:
        c = Fraction(v) * denomination
        if c.denominator == 1:
            out.add(int(c))
    return out


def _rows(table: pl.DataFrame, columns: list[str]) -> list[dict]:
    """The rows as dicts; `tier` and `prize_cents` are ABSENT when the table lacks them (such a table,
    which step 3 refuses, is judged without the rules that read them)."""
    for c in columns:
        if c not in table.columns or not table.schema[c].is_integer():
            raise ValueError(f"layout column {c} is missing or not of an integer dtype")
    common = [c for c in ("tier", "prize_cents") if c in table.columns]
    return [{"tier": ABSENT, "prize_cents": ABSENT} | r for r in table.select([*common, *columns]).to_dicts()]


# --- prize_legend_duel (docs/styles/prize_legend_duel.md) ---------------------------------------

def _duel_entry(play: dict) -> tuple[int, int, list[str], int]:
    """Section 2: (spots, losses, legend, loser_max_multipliers), or ValueError."""
    if play.get("style") != "prize_legend_duel":
        raise ValueError("play.style is not prize_legend_duel")
    losses, spots, legend = play.get("losses"), play.get("spots"), play.get("legend")
    if not _whole(losses, 1, 39):
        raise ValueError("play.losses")
    assert isinstance(losses, int)
    if not _whole(spots, losses + 1, 40):
        raise ValueError("play.spots")
    assert isinstance(spots, int)
    if (not isinstance(legend, list) or not 1 <= len(legend) <= 64
            or not all(isinstance(v, str) and 1 <= len(v) <= 40 and LEGEND.fullmatch(v) and Fraction(v) > 0
                       for v in legend)):
        raise ValueError("play.legend")
    most = play.get("loser_max_multipliers", spots - losses)
    if not _whole(most, 0, spots - losses):
        raise ValueError("play.loser_max_multipliers")
    return spots, losses, legend, most


def duel_row(row: dict, spots: int, losses: int, prizes: set[int], most: int, d: int) -> Verdict:
    """One row (sections 4 and 5): its reasons, prize and wins."""
    reasons = [f"{c}_{i} is null" for c in ("spot", "amt") for i in range(spots) if row[f"{c}_{i}"] is None]
    codes = [row[f"spot_{i}"] or 0 for i in range(spots)]
    amts = [row[f"amt_{i}"] or 0 for i in range(spots)]
    reasons += [f"spot_{i} has code {c}, not an outcome code 0..4" for i, c in enumerate(codes)
                if not 0 <= c <= 4]
    lost = [i for i, c in enumerate(codes) if c == LOSE]
    if len(lost) != losses:
        where = f" ({', '.join(map(str, lost))})" if lost else ""
        reasons.append(f"{len(lost)} LOSE spots{where}, not exactly {losses}")
    if len(lost) >= losses:
        e = lost[losses - 1]
        for i, c in enumerate(codes):
            if i <= e and c == UNPLAYED:
                reasons.append(f"spot_{i} is UNPLAYED before the last loss at spot {e}")
            elif i > e and c != UNPLAYED:
                reasons.append(f"spot_{i} is {_name(c)} after the last loss at spot {e}")
    for i, (c, a) in enumerate(zip(codes, amts, strict=True)):
        if c == WIN and a <= 0:
            reasons.append(f"amt_{i} is {a} on a WIN spot, not > 0")
        elif c != WIN and a != 0:
            name = _name(c)
            reasons.append(f"amt_{i} is {a} on {'an' if name[0] in 'AEIOU' else 'a'} {name} spot, not 0")
    reasons += [f"amt_{i} is {a}, not a legend value x {d}" for i, a in enumerate(amts)
                if a > 0 and a not in prizes]
    pays = (1 + codes.count(MULTIPLIER)) * sum(amts)
    stored, tier = row["prize_cents"], row["tier"]
    if stored is None:
        reasons.append("prize_cents is null")
    if stored is not ABSENT and pays != (stored or 0):
        reasons.append(f"layout pays {pays} cents, prize_cents is {stored or 0}")
    if tier is not ABSENT and (tier == "lose") != (pays == 0):
        reasons.append(f"tier {tier!r} but the layout pays {pays} cents")
    if tier == "lose" and codes.count(MULTIPLIER) > most:
        reasons.append(f"a losing share shows {codes.count(MULTIPLIER)} MULTIPLIER spot(s), at most {most} "
                       "(loser_max_multipliers)")
    return "; ".join(reasons), pays, codes.count(WIN)


def _name(code: int) -> str:
    return NAMES[code] if 0 <= code <= 4 else f"code {code}"


def judge_duel(play: dict, pool: dict, table: pl.DataFrame) -> list[Verdict]:
    spots, losses, legend, most = _duel_entry(play)
    d = pool.get("denomination_cents")
    if not _whole(d, 1, 2**62):
        raise ValueError("the pool's denomination_cents")
    assert isinstance(d, int)
    prizes = _cents(legend, d)
    rows = _rows(table, [f"spot_{i}" for i in range(spots)] + [f"amt_{i}" for i in range(spots)])
    return [duel_row(r, spots, losses, prizes, most, d) for r in rows]


# --- area_match (docs/styles/area_match.md) -----------------------------------------------------

def _match_entry(play: dict) -> None:
    """Section 1: what an evaluator refuses (ValueError), not what `check` refuses of a spec."""
    symbols = play.get("symbols")
    if play.get("style") != "area_match":
        raise ValueError("play.style is not area_match")
    if not isinstance(symbols, list) or not 1 <= len(symbols) <= 255 or not all(isinstance(s, str)
                                                                                for s in symbols):
        raise ValueError("play.symbols")
    n = len(symbols)
    if not _whole(play.get("spots"), 1, 16):
        raise ValueError("play.spots")
    if not _whole(play.get("wild"), 1, n) or not _whole(play.get("bonus_key"), 1, n):
        raise ValueError("play.wild or play.bonus_key")
    if play["wild"] == play["bonus_key"]:
        raise ValueError("play.bonus_key is the wild")
    pays, s = play.get("match_pays"), play["spots"]
    if (not isinstance(pays, list) or not pays or not all(
            isinstance(p, dict) and _whole(p.get("count"), 1, s) and _whole(p.get("times"), 1, 255)
            for p in pays) or [p["count"] for p in pays] != sorted({p["count"] for p in pays})):
        raise ValueError("play.match_pays")
    games = play.get("bonus_games")
    if not isinstance(games, list) or not games:
        raise ValueError("play.bonus_games")
    taken = {play["wild"], play["bonus_key"]}
    for j, g in enumerate(games, 1):
        if (not isinstance(g, dict) or g.get("code") != j or not isinstance(g.get("name"), str)
                or not _whole(g.get("symbol"), 1, n) or g["symbol"] in taken
                or ("chances" in g) == ("grid" in g)
                or ("chances" in g and not _whole(g["chances"], 1, 8))
                or ("grid" in g and not (isinstance(g["grid"], list) and 1 <= len(g["grid"]) <= 255
                                         and all(_whole(x, 1, 255) for x in g["grid"])))):
            raise ValueError(f"play.bonus_games[{j - 1}]")
        taken.add(g["symbol"])
    amounts = play.get("amount_multipliers")
    if not isinstance(amounts, list) or not amounts or not all(
            isinstance(x, str) and PLAIN.fullmatch(x) and Fraction(x) > 0 for x in amounts):
        raise ValueError("play.amount_multipliers")


def _game_reasons(i: int, game: dict, result: int, prizes: int) -> list[str]:
    """Rules 5 and 6 for the game a{i}_bonus names."""
    name = game["name"]
    if "chances" in game:
        top = 2 ** game["chances"] - 1
        if not 1 <= result <= top:
            return [f"area {i}: {name} a{i}_bonus_result {result} not a scoring mask 1..{top}"]
        scored = result.bit_count()
        if prizes != 0 and scored != prizes:
            return [f"area {i}: {name} mask {result} scores {scored}, a{i}_bonus_prizes is {prizes}"]
        return []
    grid = game["grid"]
    if not 0 <= result < len(grid):
        return [f"area {i}: {name} a{i}_bonus_result {result} not a grid section 0..{len(grid) - 1}"]
    if prizes != 0 and grid[result] != prizes:
        return [f"area {i}: {name} section {result} wins {grid[result]}, a{i}_bonus_prizes is {prizes}"]
    return []


def area_row(play: dict, row: dict, i: int, amounts: set[int], d: int) -> tuple[int, list[str], set[int]]:
    """Area i of one row (sections 3 and 5, rules 1 to 8, 10, 12): its win in cents, its reasons and
    the codes it holds."""
    s, n = play["spots"], len(play["symbols"])
    key, wild, games = play["bonus_key"], play["wild"], play["bonus_games"]
    names = [f"a{i}_s{j}" for j in range(s)] + [f"a{i}_{c}" for c in ("amount", "bonus", "bonus_result",
                                                                        "bonus_prizes")]
    reasons = [f"{c} is null" for c in names if row[c] is None]
    codes = [row[f"a{i}_s{j}"] or 0 for j in range(s)]
    amount, bonus = row[f"a{i}_amount"] or 0, row[f"a{i}_bonus"] or 0
    result, prizes = row[f"a{i}_bonus_result"] or 0, row[f"a{i}_bonus_prizes"] or 0
    reasons += [f"a{i}_s{j} has code {c}, not a symbol code 1..{n}" for j, c in enumerate(codes)
                if not 1 <= c <= n]
    special = {wild, key} | {g["symbol"] for g in games}
    matchable = [c for c in codes if 1 <= c <= n and c not in special]
    match = codes.count(wild) + max((matchable.count(c) for c in matchable), default=0)
    held = [g for g in games if g["symbol"] in codes] if key in codes else []
    trigger = held[0]["code"] if held else 0
    if len(held) >= 2:
        reasons.append(f"area {i}: {play['symbols'][key - 1]} with the symbols of {len(held)} bonus games")
    if bonus != trigger:
        what = games[trigger - 1]["name"] if trigger else "no bonus"
        reasons.append(f"area {i}: a{i}_bonus is {bonus} but its symbols trigger {what} ({trigger})")
    if bonus == 0 and (result != 0 or prizes != 0):
        reasons.append(f"area {i}: no bonus but a{i}_bonus_result {result}, a{i}_bonus_prizes {prizes}")
    named = games[bonus - 1] if 1 <= bonus <= len(games) else None
    if bonus != 0 and prizes == 0:
        reasons.append(f"area {i}: {named['name'] if named else f'bonus {bonus}'} bonus with 0 prizes")
    if named is not None:
        reasons += _game_reasons(i, named, result, prizes)
    if amount <= 0:
        reasons.append(f"area {i}: a{i}_amount {amount} not > 0")
    elif amount not in amounts:
        reasons.append(f"area {i}: a{i}_amount {amount} is not an amount multiplier x {d}")
    m0 = play["match_pays"][0]["count"]
    bonus_symbols = [key] + [g["symbol"] for g in games]
    reasons += [f"area {i}: {codes.count(b)} {play['symbols'][b - 1]} symbols match and win nothing"
                for b in bonus_symbols if codes.count(b) >= m0]
    if trigger:
        reasons += [f"area {i}: a bonus trigger with {codes.count(b)} {play['symbols'][b - 1]} symbols"
                    for b in bonus_symbols if 2 <= codes.count(b) <= m0 - 1]
        if match >= m0:
            reasons.append(f"area {i}: a match and a bonus trigger together")
    paying = [p for p in play["match_pays"] if match >= p["count"]]
    win = paying[-1]["times"] * amount if paying else prizes * amount if trigger else 0
    return win, reasons, set(codes)


def match_row(play: dict, row: dict, k: int, amounts: set[int], d: int) -> Verdict:
    """One row (sections 4 and 5): area by area, then rule 11, then rule 9."""
    wins, reasons, held = [], [], []
    for i in range(k):
        win, why, codes = area_row(play, row, i, amounts, d)
        wins.append(win)
        reasons += why
        held.append(codes)
    key = play["bonus_key"]
    for i in range(k):
        for j in range(k):
            if j != i and key in held[i]:
                reasons += [f"{play['symbols'][key - 1]} in area {i} and {play['symbols'][g['symbol'] - 1]} "
                            f"in area {j}" for g in play["bonus_games"] if g["symbol"] in held[j]]
    pays = sum(wins)
    shown = f"{' + '.join(map(str, wins))} = {pays} cents"
    if row["prize_cents"] is None:
        reasons.append("prize_cents is null")
    if row["prize_cents"] is not ABSENT and pays != (row["prize_cents"] or 0):
        reasons.append(f"areas pay {shown}, prize_cents is {row['prize_cents'] or 0}")
    if row["tier"] is not ABSENT and (row["tier"] == "lose") != (pays == 0):
        reasons.append(f"tier {row['tier']!r} but the areas pay {shown}")
    return "; ".join(reasons), pays, sum(1 for w in wins if w > 0)


def judge_match(play: dict, pool: dict, table: pl.DataFrame) -> list[Verdict]:
    _match_entry(play)
    k, d = pool["play_areas"], pool["denomination_cents"]
    if not _whole(k, 1, 10**6) or pool.get("price_cents", d * k) != d * k:
        raise ValueError("the pool's play_areas or price_cents")
    s = play["spots"]
    columns = [f"a{i}_{c}" for i in range(k)
               for c in [f"s{j}" for j in range(s)] + ["amount", "bonus", "bonus_result", "bonus_prizes"]]
    if any(re.match(r"a[0-9]+_", c) and c not in columns for c in table.columns):
        raise ValueError("a column a{i}_... that is no layout column of the pool")
    rows = _rows(table, columns)
    amounts = _cents(play["amount_multipliers"], d)
    return [match_row(play, r, k, amounts, d) for r in rows]


STYLES = {"prize_legend_duel": judge_duel, "area_match": judge_match}


def judge(play: dict, pool: dict, table: pl.DataFrame) -> list[Verdict]:
    """Every row's verdict, in pool order (play.md, "eInstant styles": the style's own engine)."""
    style = play.get("style")
    if style not in STYLES:
        raise ValueError(f"no engine for style {style!r}")
    return STYLES[style](play, pool, table)
