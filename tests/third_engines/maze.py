"""A third engine for the `maze` style, from docs/styles/maze.md and docs/styles/play.md alone.

It imports neither poolgen nor audit (tests/third_engines/test_maze.py guards it): given a manifest's
`play` entry and a pool table, it gives every row's wins and the reasons an illegal row is refused,
worded as the contracts state them."""

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


def judge(play: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """Every row the contracts refuse, as row -> (its reasons joined with "; ", what it pays in cents),
    and every row that pays other than its stored prize, (reasons "" when it is legal). A play of maze
    areas alone (no ticket-wide multiplier)."""
    cents = {(a["id"], p["code"]): p["cents"] for a in play["areas"] for p in a["prizes"]}
    tiers = {t["id"]: Counter((w["area"], w["how"], w["by"], w["prize"]) for w in t["wins"])
             for t in play["tiers"]}
    grids = [(a, table.select(f"{a['id']}_cell_{k}" for k in range(a["rows"] * a["cols"])).rows())
             for a in play["areas"]]
    out = {}
    for i, (tier, stored) in enumerate(zip(table["tier"], table["prize_cents"], strict=True)):
        wins: list[Win] = []
        reasons: list[str] = []
        for area, rows in grids:
            w, r = area_row(area, list(rows[i]))
            wins += w
            reasons += r
        pays = sum(by * cents[(a, p)] for a, _, by, p in wins)
        if len(wins) > play["max_wins"]:
            reasons.append(f"{len(wins)} wins, at most {play['max_wins']}")
        if tier not in tiers:
            reasons.append(f"tier '{tier}' is not in the manifest's play entry")
        elif Counter(wins) != tiers[tier]:
            reasons.append(f"its wins are not its tier '{tier}''s ({len(wins)} win(s) paying {pays} cents)")
        if reasons or pays != stored:
            out[i] = ("; ".join(reasons), pays)
    return out
