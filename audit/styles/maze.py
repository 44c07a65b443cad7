"""Maze ("directional arrows through a maze"), evaluated from docs/styles/maze.md (sections 1, 3 to
6) alone.

Each START's path follows the arrows (up, right, down, left) until its move leaves the grid, by an
exit (a side and a column or row), or reaches a cell the path visited (a loop). Leaving by a listed
exit wins its prize: one slot a START. A row is illegal (section 5, rule 1) when a cell code is out
of range."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns, show

_SIDES = ["top", "right", "bottom", "left"]
_STEP = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # (row, column) per arrow code 0..3


def _unreadable(aid: object) -> ValueError:
    return ValueError(f"manifest play entry: area {aid!r}: rows, cols, arrows, starts, exits or prizes "
                      "unreadable")


def _paid(area: dict[str, Any], rows: int, cols: int, codes: list[Any]) -> dict[tuple[int, int], int]:
    """(side index, at) -> index into `prizes`, for the listed exits; ValueError when unreadable."""
    exits = area.get("exits")
    if not isinstance(exits, list) or not exits:
        raise _unreadable(area["id"])
    paid: dict[tuple[int, int], int] = {}
    for e in exits:
        side = e.get("side") if isinstance(e, dict) else None
        at = e.get("at") if isinstance(e, dict) else None
        prize = e.get("prize") if isinstance(e, dict) else None
        if side not in _SIDES or type(at) is not int or prize not in codes:
            raise _unreadable(area["id"])
        s = _SIDES.index(side)
        if not 0 <= at < (cols if s % 2 == 0 else rows) or (s, at) in paid:
            raise _unreadable(area["id"])
        paid[(s, at)] = codes.index(prize)
    return paid


def _path_prize(grid: np.ndarray, rows: int, cols: int, start: int,
                paid: dict[tuple[int, int], int]) -> np.ndarray:
    """Per row: the index of the prize the START's path wins, -1 for none (a loop or an exit not
    listed). Followed step by step for all rows at once; a path visits at most rows x cols cells."""
    n = grid.shape[0]
    r = np.full(n, start // cols)
    c = np.full(n, start % cols)
    visited = np.zeros((n, rows * cols), dtype=bool)
    running = np.ones(n, dtype=bool)
    prize = np.full(n, -1, dtype=np.int64)
    table = np.full((4, max(rows, cols)), -1, dtype=np.int64)
    for (s, at), p in paid.items():
        table[s, at] = p
    every = np.arange(n)
    for _ in range(rows * cols + 1):
        k = r * cols + c
        again = running & visited[every, np.where(running, k, 0)]
        running &= ~again
        visited[every[running], k[running]] = True
        arrow = grid[every, np.where(running, k, 0)]
        dr = np.array([s[0] for s in _STEP])[arrow]
        dc = np.array([s[1] for s in _STEP])[arrow]
        nr, nc = r + dr, c + dc
        leaving = running & ((nr < 0) | (nr >= rows) | (nc < 0) | (nc >= cols))
        where = np.where(arrow % 2 == 0, c, r)
        prize = np.where(leaving, table[arrow, np.clip(where, 0, table.shape[1] - 1)], prize)
        running &= ~leaving
        r, c = np.where(running, nr, r), np.where(running, nc, c)
    return prize


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    rows, cols, arrows = area.get("rows"), area.get("cols"), area.get("arrows")
    starts, prizes = area.get("starts"), area.get("prizes")
    if not (type(rows) is int and type(cols) is int and 2 <= rows <= 8 and 2 <= cols <= 8
            and arrows == ["UP", "RIGHT", "DOWN", "LEFT"] and isinstance(starts, list)
            and 1 <= len(starts) <= 4 and all(type(s) is int and 0 <= s < rows * cols for s in starts)
            and len(set(starts)) == len(starts) and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)):
        raise _unreadable(aid)
    codes = [p.get("code") for p in prizes]
    paid = _paid(area, rows, cols, codes)
    raw = int_columns(table, [f"{aid}_cell_{k}" for k in range(rows * cols)]).astype(np.int64)
    bad = ((raw < 0) | (raw > 3)).any(axis=1)
    reasons.add(bad, lambda r: f"{aid}: a cell code out of range ({', '.join(show(v) for v in raw[r])})")
    grid = np.clip(raw, 0, 3)
    n = table.height
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    slots = []
    for start in starts:
        prize = _path_prize(grid, rows, cols, start, paid)
        slots.append(Slot(won=prize >= 0, how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(n, dtype=np.int64), prize=np.maximum(prize, 0),
                          cents=np.where(prize >= 0, cents[np.maximum(prize, 0)], 0)))
    return slots
