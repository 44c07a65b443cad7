"""A third engine for plays of `maze` and `ticket_multiplier` areas, from docs/styles/maze.md,
docs/styles/ticket_multiplier.md and docs/styles/play.md alone.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): given a
manifest's `play` entry and a pool table, it gives every row's wins and the reasons an illegal row is
refused, worded as the contracts state them."""

from __future__ import annotations

from collections import Counter

import polars as pl

Win = tuple[str, str, int, str]  # (area, how, by, prize code)
MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left (maze.md section 1)


def _shown(value: int | None) -> str:
    return "null" if value is None else "negative" if value < 0 else str(value)


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


def _columns(area: dict) -> list[str]:
    if area["style"] == "maze":
        return [f"{area['id']}_cell_{k}" for k in range(area["rows"] * area["cols"])]
    return [f"{area['id']}_spot_{j}" for j in range(area["spots"])]


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
            row = area_row if area["style"] == "maze" else multiplier_row
            w, r = row(area, list(rows[i]))
            wins += w
            reasons += r
        ticket = [w for w in wins if w[1] == "ticket"]
        other = [w for w in wins if w[1] != "ticket"]
        k = ticket[0][2] if ticket else 1
        pays = k * sum(by * cents[(a, p)] for a, _, by, p in other)
        if len(other) > play["max_wins"]:
            reasons.append(f"{len(other)} wins, at most {play['max_wins']}")
        if ticket and not other:
            reasons.append(f"a ticket-wide multiplier x{k} on a ticket with no other win")
        if tier not in tiers:
            reasons.append(f"tier '{tier}' is not in the manifest's play entry")
        elif Counter(wins) != tiers[tier]:
            reasons.append(f"its wins are not its tier '{tier}''s ({len(other)} win(s) paying {pays} cents)")
        if reasons or pays != stored:
            out[i] = ("; ".join(reasons), pays)
    return out
