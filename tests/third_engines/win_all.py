"""A third engine for key_number_match games, win-all symbols included (`how = "all"`), written from
docs/styles/key_number_match.md (sections 2, 5 to 7.1), docs/styles/play.md ("Evaluating a row") and
docs/new-game.md alone; a win-all win that pins its prizes (`shows`) holds its tier's rows to them. It
reads the game from its spec file (TOML), not from a manifest, and judges a pool file's rows: every
ticket's wins and prize, every reason a row is illegal (worded as the contracts word them), and what
the rows pay against their stored prize and their tier's.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it)."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from math import factorial
from pathlib import Path

import polars as pl

Win = tuple[str, str, int, str | int]  # (area, how, by, prize code; a win-all's: the sum in cents)


def cents(text: str) -> int:
    """A spec's money: "20.00", "$50", "$1,000.00" (docs/new-game.md)."""
    m = re.fullmatch(r"\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?", text.strip())
    if m is None:
        raise ValueError(f"not money: {text!r}")
    return int(m[1].replace(",", "")) * 100 + int((m[2] or "0").ljust(2, "0"))


@dataclass(frozen=True)
class Area:
    id: str
    source: str  # the area whose WINNING NUMBERS it matches (itself, or its `winning_from`)
    winning: int
    yours: int
    numbers: int
    prizes: tuple[tuple[str, int], ...]  # (code, cents), spec order
    specials: tuple[tuple[str, str, int], ...]  # (code, how, by)
    match_by: int
    distinct: bool


@dataclass(frozen=True)
class Game:
    areas: tuple[Area, ...]
    max_wins: int
    tiers: dict[str, tuple[int, Counter[Win]]]  # id -> (prize in cents, its wins); `lose` included
    counts: dict[str, int]  # the spec's count of each prize tier, as the spec states it
    counts_per: str
    order_tickets: int
    pool_tickets: int
    split: bool
    rules: str
    pins: dict[str, list[tuple[str, tuple[int, ...]]]] = field(default_factory=dict)  # tier -> (area, counts)


def read_spec(path: Path) -> Game:
    """The game of a format-2 spec whose areas are all key_number_match."""
    doc = tomllib.loads(path.read_text())
    printed = doc["printed"]
    price = cents(printed["price"])
    groups: dict[str, list[dict]] = {}
    for s in doc["symbols"]:
        groups.setdefault(s["group"], []).append(s)
    areas: list[Area] = []
    for a in doc["areas"]:
        assert a["style"] == "key_number_match", a["style"]
        source = a.get("winning_from", a["id"])
        winning = next(x.winning for x in areas if x.id == source) if "winning_from" in a else a["winning"]
        prizes = tuple((p["code"], price if p.get("free") else cents(p["value"]))
                       for p in groups[a["prizes"]])
        specials = tuple((s["code"], s["how"], s.get("by", 1)) for s in groups.get(a.get("specials", ""), []))
        areas.append(Area(a["id"], source, winning, a["yours"], len(groups[a["numbers"]]), prizes, specials,
                          a.get("match_by", 1), a.get("distinct_numbers", False)))
    by_id = {a.id: a for a in areas}
    tiers: dict[str, tuple[int, Counter[Win]]] = {"lose": (0, Counter())}
    counts = {}
    pins: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
    for t in doc["tiers"]:
        wins: Counter[Win] = Counter()
        pays = 0
        for w in t["wins"]:
            area = by_id[w["area"]]
            if w["how"] == "all":
                wins[(area.id, "all", 1, cents(w["prize"]))] += 1
                pays += cents(w["prize"])
                if "shows" in w:  # section 2: the prizes it pins, as a count per prize in `prizes` order
                    pins.setdefault(t["id"], []).append(
                        (area.id, tuple(w["shows"].get(c, 0) for c, _ in area.prizes)))
                continue
            by = {"match": area.match_by, "automatic": 1}.get(w["how"], w.get("by", 1))
            wins[(area.id, w["how"], by, w["prize"])] += 1
            pays += by * dict(area.prizes)[w["prize"]]
        tiers[t["id"]] = (cents(t["prize"]) if "prize" in t else pays, wins)
        counts[t["id"]] = t["count"]
    return Game(tuple(areas), doc["play"]["max_wins"], tiers, counts, printed["counts_per"],
                printed["order_tickets"], printed["pool_tickets"], printed.get("split") == "even",
                doc["game"]["id"], pins)


def _shown(v: int | None) -> str:
    return "null" if v is None else "negative" if v < 0 else ">=9999" if v >= 9999 else str(v)


def _codes(values: list[int | None]) -> str:
    return ", ".join(_shown(v) for v in values)


def _in(v: int | None, size: int) -> bool:
    return v is not None and 0 <= v < size


def area_row(area: Area, win: list[int | None], your: list[int | None],
             prize: list[int | None]) -> tuple[list[Win], list[str], int]:
    """Section 5: one area of one row: its wins, its reasons (rules 1 to 8 in order) and what it pays."""
    aid, n, big_p = area.id, area.numbers, len(area.prizes)
    own = area.source == aid
    reasons = []
    if own and not all(_in(v, n) for v in win):
        reasons.append(f"{aid}: a winning number code out of range ({_codes(win)})")
    if not all(_in(y, n + len(area.specials)) for y in your):
        reasons.append(f"{aid}: a your-number code out of range ({_codes(your)})")
    if not all(_in(q, big_p) for q in prize):
        reasons.append(f"{aid}: a prize code out of range ({_codes(prize)})")
    if own and len(set(win)) < len(win) and all(v is not None for v in win):
        reasons.append(f"{aid}: two winning numbers are equal")
    targets = set(win) if all(_in(v, n) for v in win) else set()

    def matches(y: int | None) -> bool:
        return y is not None and 0 <= y < n and y in targets

    if area.distinct:
        hits = [y for y in your if matches(y)]
        k, w = len(hits), len(win)
        used = [hits.count(v) for v in win]
        if k and any(u not in (k // w, -(-k // w)) for u in used):
            times = ", ".join(map(str, used))
            reasons.append(f"{aid}: {k} matches use the WINNING NUMBERS unevenly ({times} times)")
        misses = [y for y in your if y is not None and 0 <= y < n and not matches(y)]
        if len(set(misses)) < len(misses):
            reasons.append(f"{aid}: a YOUR NUMBER that matches nothing shows twice")
    special = [area.specials[y - n] if y is not None and n <= y < n + len(area.specials) else None
               for y in your]
    every = [j for j, s in enumerate(special) if s is not None and s[1] == "all"]
    if len(every) >= 2:
        reasons.append(f"{aid}: {len(every)} win-all symbols")
    if every:
        others = [j for j in range(area.yours)
                  if j not in every and (matches(your[j]) or special[j] is not None)]
        if others:
            reasons.append(f"{aid}: a win-all symbol beside {len(others)} other win(s)")
        total = sum(area.prizes[q][1] for q in prize if _in(q, big_p))
        return [(aid, "all", 1, total)], reasons, total
    wins: list[Win] = []
    pays = 0
    for y, q, s in zip(your, prize, special, strict=True):
        if not _in(q, big_p):
            continue
        code, value = area.prizes[q]  # type: ignore[index]
        if matches(y):
            wins.append((aid, "match", area.match_by, code))
            pays += area.match_by * value
        elif s is not None:
            by = s[2] if s[1] == "multiplier" else 1
            wins.append((aid, s[1], by, code))
            pays += by * value
    return wins, reasons, pays


def judge(game: Game, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """Every row the contracts refuse, and every row that pays other than its stored prize or its tier's
    prize: row -> (its reasons joined with "; ", what it pays in cents)."""
    cols = []
    for a in game.areas:
        win = (table.select([f"{a.source}_win_{i}" for i in range(a.winning)]).rows() if a.winning
               else [()] * table.height)
        cols.append((a, win,
                     table.select([f"{a.id}_your_{j}" for j in range(a.yours)]).rows(),
                     table.select([f"{a.id}_prize_{j}" for j in range(a.yours)]).rows()))
    out = {}
    for i, (tier, stored) in enumerate(zip(table["tier"], table["prize_cents"], strict=True)):
        wins: list[Win] = []
        reasons: list[str] = []
        pays = 0
        for a, win, your, prize in cols:
            w, r, p = area_row(a, list(win[i]), list(your[i]), list(prize[i]))
            wins += w
            reasons += r
            pays += p
        if len(wins) > game.max_wins:
            reasons.append(f"{len(wins)} wins, at most {game.max_wins}")
        if tier not in game.tiers:
            reasons.append(f"tier '{tier}' is not in the manifest's play entry")
        elif Counter(wins) != game.tiers[tier][1]:
            reasons.append(f"its wins are not its tier '{tier}''s ({len(wins)} win(s) paying {pays} cents)")
        for aid, pinned in game.pins.get(tier, []):  # section 5: a row showing the symbol shows the pin
            a, _, your, prize = next(c for c in cols if c[0].id == aid)
            alls = [a.numbers + s for s, (_, how, _) in enumerate(a.specials) if how == "all"]
            if not any(y in alls for y in your[i]):
                continue
            top = len(a.prizes) - 1  # a code out of range counted as the nearest in range
            near = [0 if q is None or q < 0 else min(q, top) for q in prize[i]]
            shown = tuple(near.count(k) for k in range(len(a.prizes)))
            if shown != pinned:
                reasons.append(f"{aid}: its win-all symbol shows {_said(a, shown)}, not the prizes its tier "
                               f"pins ({_said(a, pinned)})")
        if reasons or pays != stored or (tier in game.tiers and stored != game.tiers[tier][0]):
            out[i] = ("; ".join(reasons), pays)
    return out


def _said(area: Area, counts: tuple[int, ...]) -> str:
    """`10 x '5', 5 x '10'`: prizes in the area's order, those shown 0 times left out (play.md rule 4)."""
    return ", ".join(f"{k} x '{code}'" for (code, _), k in zip(area.prizes, counts, strict=True) if k)


def pool_counts(game: Game, tickets: int) -> dict[str, int]:
    """A pool's count of each prize tier without a split (docs/new-game.md section 2)."""
    if game.counts_per == "pool":
        return {t: c * tickets // game.pool_tickets for t, c in game.counts.items()}
    return {t: c * tickets // game.order_tickets for t, c in game.counts.items()}


def sequences(area: Area, total: int) -> dict[tuple[int, ...], int]:
    """Section 7.1: every multiset of Y prize symbols adding up to `total`, as its counts per symbol in
    `prizes` order, with its weight Y! / (c_0! c_1! ...), the number of sequences showing it."""
    values = [v for _, v in area.prizes]
    out: dict[tuple[int, ...], int] = {}

    def walk(i: int, left: int, amount: int, counts: tuple[int, ...]) -> None:
        if i == len(values):
            if left == 0 and amount == 0:
                weight = factorial(area.yours)
                for c in counts:
                    weight //= factorial(c)
                out[counts] = weight
            return
        for c in range(left + 1):
            if c * values[i] > amount:
                break
            walk(i + 1, left - c, amount - c * values[i], (*counts, c))

    walk(0, area.yours, total, ())
    return out


def searched(values: list[int], yours: int, total: int) -> int:
    """Section 2: how many partial sums (symbols passed, spots left, amount left), each with a symbol, a
    spot and an amount left, deciding a win-all sum and listing its multisets searches."""
    n = len(values)
    decided: dict[tuple[int, int, int], bool] = {}

    def can(i: int, left: int, amount: int) -> bool:
        if left == 0 or i == n or amount <= 0:
            return left == 0 and amount == 0
        if (i, left, amount) not in decided:  # the first count that can finish it decides
            decided[(i, left, amount)] = any(can(i + 1, left - c, amount - c * values[i])
                                             for c in range(min(left, amount // values[i]) + 1))
        return decided[(i, left, amount)]

    def walk(i: int, left: int, amount: int) -> None:
        for c in range(min(left, amount // values[i]) + 1) if i < n else ():
            if can(i + 1, left - c, amount - c * values[i]):
                walk(i + 1, left - c, amount - c * values[i])

    if can(0, yours, total):
        walk(0, yours, total)
    return len(decided)
