"""A third engine for plays of `maze`, `ticket_multiplier` and `bingo` areas, from
docs/styles/maze.md, ticket_multiplier.md, bingo.md and docs/styles/play.md alone.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): given a
manifest's `play` entry and a pool table, it gives every row's wins and the reasons an illegal row is
refused, worded as the contracts state them."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import polars as pl

Win = tuple[str, str, int, str]  # (area, how, by, prize code)
MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left (maze.md section 1)


def _shown(value: int | None) -> str:
    return "null" if value is None else "negative" if value < 0 else ">=9999" if value >= 9999 else str(value)


def path_prize(area: dict, grid: list[int | None], start: int) -> str | None:
    """The prize the START's path wins (maze.md section 1), None when it ends unpaid: by an exit not
    listed, in a loop, or at a cell whose code is out of range (section 5)."""
    rows, cols = area["rows"], area["cols"]
    exits = {(e["side"], e["at"]): e["prize"] for e in area["exits"]}
    cell, seen = start, {start}
    while True:
        code = grid[cell]
        if code is None or not 0 <= code <= 3:
            return None
        r, c = divmod(cell, cols)
        dr, dc = MOVES[code]
        nr, nc = r + dr, c + dc
        if nr < 0:
            return exits.get(("top", c))
        if nr >= rows:
            return exits.get(("bottom", c))
        if nc < 0:
            return exits.get(("left", r))
        if nc >= cols:
            return exits.get(("right", r))
        cell = nr * cols + nc
        if cell in seen:
            return None
        seen.add(cell)


def area_row(area: dict, grid: list[int | None]) -> tuple[list[Win], list[str]]:
    """One maze area of one row: its wins (one slot a START, in `starts` order) and its reasons."""
    reasons = []
    if any(v is None or not 0 <= v <= 3 for v in grid):
        reasons.append(f"{area['id']}: a cell code out of range ({', '.join(_shown(v) for v in grid)})")
    wins = [(area["id"], "match", 1, p) for p in (path_prize(area, grid, s) for s in area["starts"])
            if p is not None]
    return wins, reasons


def multiplier_row(area: dict, spots: list[int | None]) -> tuple[list[Win], list[str]]:
    """One ticket_multiplier area of one row (ticket_multiplier.md sections 5 and 6): its one win, the
    first spot in spot order that shows a multiplier, and its reasons."""
    d, m = len(area["pictures"]), len(area["multipliers"])
    reasons = []
    if any(v is None or not 0 <= v < d + m for v in spots):
        reasons.append(f"{area['id']}: a spot code out of range ({', '.join(_shown(v) for v in spots)})")
    shown = [area["multipliers"][v - d] for v in spots if v is not None and d <= v < d + m]
    if len(shown) > 1:
        reasons.append(f"{area['id']}: {len(shown)} multiplier symbols (at most one)")
    return [(area["id"], "ticket", shown[0]["by"], shown[0]["code"])] if shown else [], reasons


LINES = ([frozenset(range(5 * r, 5 * r + 5)) for r in range(5)]  # rows, columns, diagonals
         + [frozenset(range(c, 25, 5)) for c in range(5)]
         + [frozenset({0, 6, 12, 18, 24}), frozenset({4, 8, 12, 16, 20})])
SHAPES = {  # bingo.md section 1's catalogue
    "line": LINES,
    "corners": [frozenset({0, 4, 20, 24})],
    "x": [frozenset({0, 4, 6, 8, 12, 16, 18, 20, 24})],
    "full": [frozenset(range(25))],
    "postage_stamp": [frozenset(s) for s in ({0, 1, 5, 6}, {3, 4, 8, 9}, {15, 16, 20, 21},
                                             {18, 19, 23, 24})],
    "frame": [frozenset({0, 1, 2, 3, 4, 5, 9, 10, 14, 15, 19, 20, 21, 22, 23, 24})],
    "two_lines": [LINES[i] | LINES[j] for i, j in combinations(range(12), 2)],
}


def bingo_row(area: dict, codes: list[int | None]) -> tuple[list[Win], list[str]]:
    """One bingo area of one row (bingo.md section 5): per card, its highest listed pattern complete;
    an illegal row is evaluated from its codes as stored."""
    aid, calls, free = area["id"], area["calls"], area["free"]
    called = codes[:calls]
    cards = [codes[calls + 25 * k: calls + 25 * k + 25] for k in range(area["cards"])]
    reasons = []
    if any(v is None or not 0 <= v <= 74 for v in called) or len(set(called)) < calls:
        reasons.append(f"{aid}: the caller's numbers are not distinct numbers 1-75 "
                       f"({', '.join(_shown(v) for v in called)})")
    wins = []
    for k, card in enumerate(cards):
        fine = all(v is not None and 15 * (c % 5) <= v <= 15 * (c % 5) + 14
                   for c, v in enumerate(card) if c != 12)
        centre = card[12]
        fine &= centre == 75 if free else centre is not None and 30 <= centre <= 44
        numbers = [v for v in card if v != 75]
        fine &= len(set(numbers)) == len(numbers)
        if not fine:
            reasons.append(f"{aid}: card {k + 1} is not a bingo card ({', '.join(_shown(v) for v in card)})")
        marked = {c for c, v in enumerate(card) if v is not None and v in called} | ({12} if free else set())
        best = None
        for pattern in area["patterns"]:
            sets = (SHAPES[pattern["shape"]] if "shape" in pattern
                    else [frozenset(x) for x in pattern["cells"]])
            if any(s <= marked for s in sets):
                best = pattern["prize"]
        if best is not None:
            wins.append((aid, "match", 1, best))
    return wins, reasons


def _columns(area: dict) -> list[str]:
    if area["style"] == "maze":
        return [f"{area['id']}_cell_{k}" for k in range(area["rows"] * area["cols"])]
    if area["style"] == "bingo":
        return [f"{area['id']}_call_{i}" for i in range(area["calls"])] + [
            f"{area['id']}_card{k}_{c}" for k in range(area["cards"]) for c in range(25)]
    if area["style"] == "ticket_multiplier":
        return [f"{area['id']}_spot_{j}" for j in range(area["spots"])]
    raise ValueError(f"no third engine for style {area['style']!r}")


def judge(play: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """Every row the contracts refuse, as row -> (its reasons joined with "; ", what it pays in cents),
    and every row that pays other than its stored prize (reasons "" when it is legal). play.md:
    a ticket-wide multiplier x k is no win of its own; the row pays k x the sum of its other wins."""
    cents = {(a["id"], p["code"]): p["cents"] for a in play["areas"] for p in a.get("prizes", [])}
    tiers = {t["id"]: Counter((w["area"], w["how"], w["by"], w["prize"]) for w in t["wins"])
             for t in play["tiers"]}
    areas = [(a, table.select(_columns(a)).rows()) for a in play["areas"]]
    out = {}
    for i, (tier, stored) in enumerate(zip(table["tier"], table["prize_cents"], strict=True)):
        wins: list[Win] = []
        reasons: list[str] = []
        for area, rows in areas:
            rule = {"maze": area_row, "bingo": bingo_row, "ticket_multiplier": multiplier_row}
            row = rule[area["style"]]
            w, r = row(area, list(rows[i]))
            wins += w
            reasons += r
        ticket = [w for w in wins if w[1] == "ticket"]
        other = [w for w in wins if w[1] != "ticket"]
        k = ticket[0][2] if ticket else 1
        mine = [w for w in other if _covered(play, w)]  # ticket_multiplier.md 9: what the box multiplies
        rest = [w for w in other if not _covered(play, w)]
        pays = k * sum(by * cents[(a, p)] for a, _, by, p in mine) + sum(
            by * cents[(a, p)] for a, _, by, p in rest)
        if len(other) > play["max_wins"]:
            reasons.append(f"{len(other)} wins, at most {play['max_wins']}")
        if ticket and not mine and any(a.get("multipliers_on_losers") is True for a, _ in areas):
            wins = other  # ticket_multiplier.md 5 and 9: a multiplier with nothing to multiply is no win
        elif ticket and not mine and _scope(play) is None:
            reasons.append(f"a ticket-wide multiplier x{k} on a ticket with no other win")
        elif ticket and not mine:
            reasons.append(f"a multiplier x{k} on a ticket with no win in what it multiplies")
        if tier not in tiers:
            reasons.append(f"tier '{tier}' is not in the manifest's play entry")
        elif Counter(wins) != tiers[tier]:
            reasons.append(f"its wins are not its tier '{tier}''s ({len(other)} win(s) paying {pays} cents)")
        if reasons or pays != stored:
            out[i] = ("; ".join(reasons), pays)
    return out


def _scope(play: dict) -> list | None:
    """The ticket_multiplier area's `multiplies` (ticket_multiplier.md 9), None without one."""
    return next((a["multiplies"] for a in play["areas"] if a["style"] == "ticket_multiplier"
                 and "multiplies" in a), None)


def _covered(play: dict, win: Win) -> bool:
    """Section 9: a win of a named area, or a legend win of a named crossword grid (never a bonus word's
    of the same code); every win without it."""
    scope = _scope(play)
    if scope is None:
        return True
    areas = {a["id"]: a for a in play["areas"]}
    return any(t["area"] == win[0] and ("grid" not in t or win[1] == "match" and any(
        x["prize"] == win[3] for x in areas[win[0]]["legends"][t["grid"] - 1])) for t in scope)
