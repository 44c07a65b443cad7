"""Lines ("three in a line"), evaluated from docs/styles/lines.md (sections 3 to 6) alone.

A listed line is complete when all its cells show the symbol (or, with `symbols`, one of them alike);
the number of complete lines wins the legend's prize for it, or (`line_prizes`) each complete line
wins the prize printed for it. A row is illegal (section 5, rules 1 to 3, in this order) when a cell
code is out of range, a line shows one decoy picture in every cell, or the number of complete lines is
at least the legend's smallest and not listed (a legend's only). With `calls` (section 1b) a cell is
marked when the caller shows its picture, a line complete when its cells are all marked; rules 5 and 6
refuse a caller or a board showing a picture twice."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns, show


def _unreadable(aid: object) -> ValueError:
    return ValueError(f"manifest play entry: area {aid!r}: rows, cols, pictures, symbol, symbols, calls, "
                      "lines, prizes, legend or line_prizes unreadable")


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    rows, cols = area.get("rows"), area.get("cols")
    pictures = area.get("pictures")
    calls = area.get("calls", 0)
    named = area.get("symbols") if "symbols" in area else [area.get("symbol")] if not calls else []
    lines, prizes, legend = area.get("lines"), area.get("prizes"), area.get("legend")
    per_line = area.get("line_prizes")
    kinds = ("symbol" in area) + ("symbols" in area) + ("calls" in area)
    if ("legend" in area) == ("line_prizes" in area) or kinds != 1:
        raise _unreadable(aid)
    if not (isinstance(named, list) and isinstance(pictures, list) and all(c in pictures for c in named)
            and len(set(map(str, named))) == len(named)
            and len(named) >= (2 if "symbols" in area else 0 if calls else 1)):
        raise _unreadable(aid)
    if "calls" in area and not (type(calls) is int and 1 <= calls < len(pictures) <= 255
                                and type(rows) is int and type(cols) is int and rows * cols <= len(pictures)):
        raise _unreadable(aid)
    if not (type(rows) is int and type(cols) is int and rows >= 1 and cols >= 1 and rows * cols <= 16
            and isinstance(pictures, list) and len(set(map(str, pictures))) == len(pictures)
            and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)
            and isinstance(lines, list) and lines
            and (isinstance(legend, list) and legend or isinstance(per_line, list) and per_line
                 or per_line == "shown")):
        raise _unreadable(aid)
    cells = rows * cols
    for line in lines:
        if not (isinstance(line, list) and len(line) >= 3 and len(set(line)) == len(line)
                and all(type(c) is int and 0 <= c < cells for c in line)):
            raise _unreadable(aid)
    codes = [p.get("code") for p in prizes]
    if isinstance(per_line, list) and (len(per_line) != len(lines) or any(p not in codes for p in per_line)):
        raise _unreadable(aid)
    table_: list[tuple[int, int]] = []
    for item in legend or []:
        n = item.get("lines") if isinstance(item, dict) else None
        p = item.get("prize") if isinstance(item, dict) else None
        increasing = not table_ or type(n) is int and n > table_[-1][0]
        if type(n) is not int or not 1 <= n <= len(lines) or not increasing or p not in codes:
            raise _unreadable(aid)
        table_.append((n, codes.index(p)))
    keys = np.array([pictures.index(c) for c in named], dtype=np.int64)
    grid = int_columns(table, [f"{aid}_cell_{k}" for k in range(cells)]).astype(np.int64)
    n = table.height
    bad = ((grid < 0) | (grid >= len(pictures))).any(axis=1)
    reasons.add(bad, lambda r: f"{aid}: a cell code out of range ({', '.join(show(v) for v in grid[r])})")
    complete = np.zeros(n, dtype=np.int64)
    done = np.zeros((n, len(lines)), dtype=bool)
    decoy_line = np.zeros((n, len(lines)), dtype=bool)
    for i, line in enumerate(lines):
        part = grid[:, line]
        alike = (part == part[:, :1]).all(axis=1)
        done[:, i] = alike & np.isin(part[:, 0], keys)
        complete += done[:, i]
        # a line of one decoy is one whatever the row's other cells show (rule 2 holds beside rule 1)
        shown = (part[:, 0] >= 0) & (part[:, 0] < len(pictures))
        decoy_line[:, i] = alike & ~np.isin(part[:, 0], keys) & shown
    if calls:  # section 1b: marked cells, rules 5 and 6 (no decoys: rule 2 does not apply)
        done, complete = _called(table, aid, grid, calls, len(pictures), lines, reasons)
    else:
        reasons.add(decoy_line.any(axis=1), lambda r: ", ".join(
            f"{aid}: line {i + 1} shows {pictures[grid[r, lines[i][0]]]} alone"
            for i in np.flatnonzero(decoy_line[r])))
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    how, by = np.full(n, HOWS.index("match"), dtype=np.int64), np.ones(n, dtype=np.int64)
    if per_line == "shown":  # rule 4, then a slot a line: a complete line wins the prize its spot shows
        spots = int_columns(table, [f"{aid}_prize_{i}" for i in range(len(lines))]).astype(np.int64)
        inside = (spots >= 0) & (spots < len(prizes))
        reasons.add(~inside.all(axis=1), lambda r: f"{aid}: a prize spot code out of range "
                                                   f"({', '.join(show(v) for v in spots[r])})")
        at, won = np.clip(spots, 0, len(prizes) - 1), done & inside
        return [Slot(won=won[:, i], how=how, by=by, prize=at[:, i],
                     cents=np.where(won[:, i], cents[at[:, i]], 0)) for i in range(len(lines))]
    if per_line is not None:  # a slot a line: a complete line wins the prize printed for it
        return [Slot(won=done[:, i], how=how, by=by, prize=np.full(n, codes.index(p), dtype=np.int64),
                     cents=np.where(done[:, i], cents[codes.index(p)], 0)) for i, p in enumerate(per_line)]
    counts = np.array([c for c, _ in table_], dtype=np.int64)
    reasons.add(~np.isin(complete, counts) & (complete >= counts[0]),
                lambda r: f"{aid}: {int(complete[r])} complete lines: the legend has no prize for "
                          f"{int(complete[r])}")
    prize_of = np.full(len(lines) + 1, -1, dtype=np.int64)
    for c, p_ in table_:
        prize_of[c] = p_
    prize = prize_of[complete]
    return [Slot(won=prize >= 0, how=np.full(n, HOWS.index("match"), dtype=np.int64),
                 by=np.ones(n, dtype=np.int64), prize=np.maximum(prize, 0),
                 cents=np.where(prize >= 0, cents[np.maximum(prize, 0)], 0))]


def _called(table: pl.DataFrame, aid: str, grid: np.ndarray, calls: int, count: int,
            lines: list[list[int]], reasons: Reasons) -> tuple[np.ndarray, np.ndarray]:
    """Section 1b: which lines the caller's pictures complete (a cell marked when its stored code equals
    one of the callers' stored codes), and rules 5 and 6."""
    called = int_columns(table, [f"{aid}_call_{j}" for j in range(calls)]).astype(np.int64)
    out = (called < 0) | (called >= count)
    twice = _twice(np.where(out, -1000 - np.arange(calls), called))
    reasons.add(out.any(axis=1) | twice, lambda r: f"{aid}: the caller's pictures are not distinct pictures "
                                                   f"({', '.join(show(v) for v in called[r])})")
    inside = (grid >= 0) & (grid < count)
    reasons.add(_twice(np.where(inside, grid, -1000 - np.arange(grid.shape[1]))),
                lambda r: f"{aid}: the board shows a picture twice ({', '.join(show(v) for v in grid[r])})")
    marked = (grid[:, :, None] == np.where(out, -1, called)[:, None, :]).any(axis=2) & inside
    done = np.stack([marked[:, line].all(axis=1) for line in lines], axis=1)
    complete: np.ndarray = done.sum(axis=1)
    return done, complete


def _twice(codes: np.ndarray) -> np.ndarray:
    """Per row: whether a value shows twice (out-of-range values made distinct by the caller)."""
    ordered = np.sort(codes, axis=1)
    out: np.ndarray = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    return out
