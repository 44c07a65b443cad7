"""Maze (contract: docs/styles/maze.md): "directional arrows through a maze" on an R x C grid of
arrows. Each START's path follows the arrows until it leaves the grid or reaches a cell it visited;
leaving by a listed exit wins that exit's prize. Each START is a play with its own win."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from poolgen.errors import RunError
from poolgen.game.model import Symbol
from poolgen.game.play import AreaReading, Cell, Groups, Section, Win, WinError, prize_entry
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, derive_stream, integers

FIELDS: frozenset[str] = frozenset({"rows", "cols", "arrows", "starts", "exits", "prizes"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_cell_", ("arrows",)),)
ARROWS = ("UP", "RIGHT", "DOWN", "LEFT")  # the codes of `arrows`, in order: a cell's stored direction
SIDES = ("top", "right", "bottom", "left")  # leaving by arrow d leaves by side d
MAX_SIDE = 8
MAX_STARTS = 4
PROBE = 65_536  # uniform grids `check` draws: a tier (and the losers) needs at least MIN_PROBE (section 2)
MIN_PROBE = 16
TRIES = 100_000
_DR = np.array([-1, 0, 1, 0], dtype=np.int64)
_DC = np.array([0, 1, 0, -1], dtype=np.int64)


@dataclass(frozen=True)
class Params:
    rows: int
    cols: int
    arrows: tuple[Symbol, ...]
    starts: tuple[int, ...]
    exits: tuple[tuple[str, int, Symbol], ...]  # (side, at, prize) as listed
    prizes: tuple[Symbol, ...]

    def exit_prizes(self) -> tuple[tuple[str, int, int], ...]:
        """(side, at, index of the prize in `prizes`) per listed exit: what the walk needs."""
        codes = [s.code for s in self.prizes]
        return tuple((side, at, codes.index(p.code)) for side, at, p in self.exits)


def walk(grid: np.ndarray, rows: int, cols: int, start: int,
         exits: tuple[tuple[str, int, int], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Per grid (row of `grid`, directions 0..3): the prize index the START's path wins (-1: none)
    and the cells it visits (a boolean (m, RC) array), contract section 1."""
    m = grid.shape[0]
    paid = np.full(4 * MAX_SIDE, -1, dtype=np.int64)  # exit (side, at) -> prize index
    for side, at, prize in exits:
        paid[SIDES.index(side) * MAX_SIDE + at] = prize
    r = np.full(m, start // cols, dtype=np.int64)
    c = np.full(m, start % cols, dtype=np.int64)
    seen = np.zeros((m, rows * cols), dtype=bool)
    won = np.full(m, -1, dtype=np.int64)
    live = np.arange(m)
    while live.size:
        cell = r[live] * cols + c[live]
        fresh = ~seen[live, cell]
        live, cell = live[fresh], cell[fresh]
        seen[live, cell] = True
        d = grid[live, cell]
        nr, nc = r[live] + _DR[d], c[live] + _DC[d]
        out = (nr < 0) | (nr >= rows) | (nc < 0) | (nc >= cols)
        at = np.where(d % 2 == 0, c[live], r[live])
        won[live[out]] = paid[d[out] * MAX_SIDE + at[out]]
        r[live], c[live] = nr, nc
        live = live[~out]
    return won, seen


@cache
def _successors(rows: int, cols: int) -> np.ndarray:
    """Per (cell, direction), flat as 4 cell + d: the cell an arrow leads to, or -1 - (d MAX_SIDE + at)
    where it leaves the grid by side d at row or column `at` (walk's exit, as its `paid` indexes it)."""
    cell = np.arange(rows * cols)
    r, c = np.repeat(cell // cols, 4), np.repeat(cell % cols, 4)
    d = np.tile(np.arange(4), rows * cols)
    nr, nc = r + _DR[d], c + _DC[d]
    out = (nr < 0) | (nr >= rows) | (nc < 0) | (nc >= cols)
    return np.where(out, -1 - (d * MAX_SIDE + np.where(d % 2 == 0, c, r)), nr * cols + nc)


def won_by(grid: np.ndarray, rows: int, cols: int, start: int,
           exits: tuple[tuple[str, int, int], ...]) -> np.ndarray:
    """`walk(grid, rows, cols, start, exits)[0]`: the same path, step by step, from a table of each cell's
    successor under each arrow, and flat indices into the grids and the cells seen."""
    m, cells = grid.shape[0], rows * cols
    paid = np.full(4 * MAX_SIDE, -1, dtype=np.int64)
    for side, at, prize in exits:
        paid[SIDES.index(side) * MAX_SIDE + at] = prize
    succ = _successors(rows, cols)
    flat = grid.reshape(-1)
    seen = np.zeros(m * cells, dtype=bool)
    won = np.full(m, -1, dtype=np.int64)
    live = np.arange(m) * cells  # each live grid's first flat index
    cell = np.full(m, start, dtype=np.int64)
    while live.size:
        here = live + cell
        fresh = ~seen[here]
        live, cell, here = live[fresh], cell[fresh], here[fresh]
        seen[here] = True
        nxt = succ[4 * cell + flat[here]]
        out = nxt < 0
        won[live[out] // cells] = paid[-1 - nxt[out]]
        stay = ~out
        live, cell = live[stay], nxt[stay]
    return won


def outcomes(params: Params, grid: np.ndarray) -> np.ndarray:
    """Per grid: the prize indices its STARTs win, sorted (-1: a START that wins nothing), (m, starts)."""
    exits = params.exit_prizes()
    won = np.stack([won_by(grid, params.rows, params.cols, s, exits) for s in params.starts], axis=1)
    return np.sort(won, axis=1)


def _target(params: Params, codes: tuple[str, ...]) -> np.ndarray:
    index = [s.code for s in params.prizes]
    got = sorted([index.index(c) for c in codes] + [-1] * (len(params.starts) - len(codes)))
    return np.array(got, dtype=np.int64)


@cache
def _probe(params: Params) -> Counter[tuple[int, ...]]:
    """How many of PROBE uniform grids (fixed stream) give each sorted outcome (section 2)."""
    cells = params.rows * params.cols
    grid = integers(derive_stream(bytes(32), "maze", "check"), 4, size=PROBE * cells).reshape(PROBE, cells)
    return Counter(tuple(int(v) for v in row) for row in outcomes(params, grid))


def _exits(ctx: AreaReading, table: Mapping[str, Any], where: str, rows: int, cols: int,
           prizes: tuple[Symbol, ...]) -> tuple[tuple[str, int, Symbol], ...]:
    r = ctx.r
    out: list[tuple[str, int, Symbol]] = []
    for i, item in enumerate(r.get(table, "exits", where, list)):
        at_ = f"{where}.exits[{i}]"
        if not isinstance(item, dict) or set(item) - {"side", "at", "prize"}:
            raise r.fail(at_, "must be a table { side, at, prize }")
        side = r.get(item, "side", at_, str)
        if side not in SIDES:
            raise r.fail(f"{at_}.side", f"{side!r}: one of {', '.join(SIDES)}")
        at = ctx.whole(item, "at", at_, 0, high=(cols if side in ("top", "bottom") else rows) - 1)
        if any((s, a) == (side, at) for s, a, _ in out):
            raise r.fail(at_, f"exit {side} {at} listed twice")
        prize = next((s for s in prizes if s.code == r.get(item, "prize", at_, str)), None)
        if prize is None:
            raise r.fail(f"{at_}.prize", "not one of the area's prize symbols")
        out.append((side, at, prize))
    if not out:
        raise r.fail(f"{where}.exits", "list the exits that pay, each with its prize")
    return tuple(out)


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    rows = ctx.whole(table, "rows", where, 2, high=MAX_SIDE)
    cols = ctx.whole(table, "cols", where, 2, high=MAX_SIDE)
    arrows = ctx.group(table, "arrows", where, "pictures")
    if tuple(s.code for s in arrows) != ARROWS:
        raise r.fail(f"{where}.arrows", f"the 4 arrows, codes {', '.join(ARROWS)} in that order")
    starts = r.get(table, "starts", where, list)
    if not (1 <= len(starts) <= MAX_STARTS and all(type(s) is int and 0 <= s < rows * cols for s in starts)
            and len(set(starts)) == len(starts)):
        raise r.fail(f"{where}.starts", f"1 to {MAX_STARTS} distinct cells 0..{rows * cols - 1}")
    prizes = ctx.group(table, "prizes", where, "prizes")
    params = Params(rows, cols, arrows, tuple(starts), _exits(ctx, table, where, rows, cols, prizes), prizes)
    if _probe(params)[(-1,) * len(starts)] < MIN_PROBE:
        raise r.fail(f"{where}.exits", f"fewer than {MIN_PROBE} of {PROBE:,} probe grids pay no START "
                                       "(the losers)")
    return params


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    prize = next((p for _, _, p in params.exits if p.code == code), None)
    if prize is None:
        raise WinError("prize", f"prize {code!r} is not an exit's")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a maze win is \"match\" (the prize of the exit a path "
                              "leaves by)")
    if by is not None:
        raise WinError("by", "an exit's prize wins as listed: no `by`")
    return prize, 1


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > len(params.starts):
        return f"each of the {len(params.starts)} START(s) wins one prize at most"
    target = tuple(int(v) for v in _target(params, tuple(w.prize.code for w in wins)))
    found = _probe(params)[target]
    if found < MIN_PROBE:
        return (f"{found} of {PROBE:,} probe grids pay exactly these prizes; at least {MIN_PROBE} (a layout "
                "by rejection must stay cheap)")
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"rows": params.rows, "cols": params.cols, "arrows": [s.code for s in params.arrows],
            "starts": list(params.starts),
            "exits": [{"side": s, "at": a, "prize": p.code} for s, a, p in params.exits],
            "prizes": prize_entry(params.prizes)}


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_cell_{k}" for k in range(params.rows * params.cols)]


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7: per tier, uniform grids until enough pay exactly the tier's prizes."""
    cells = params.rows * params.cols
    out = np.zeros((n, cells), dtype=np.int64)
    for rows, wins in groups:
        target = _target(params, tuple(w.prize.code for w in wins))
        left = rows
        for _ in range(TRIES):
            if not left.size:
                break
            b = min(65_536, max(4_096, 8 * left.size))
            grid = integers(stream, 4, size=b * cells).reshape(b, cells)
            good = grid[(outcomes(params, grid) == target).all(axis=1)][:left.size]
            out[left[:good.shape[0]]] = good
            left = left[good.shape[0]:]
        if left.size:
            raise RunError(f"area {area_id!r}: grids not laid out in {TRIES:,} rounds")
    out8 = out.astype(np.uint8)
    return {name: np.ascontiguousarray(out8[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _grid(area_id: str, params: Params, row: Mapping[str, Any]) -> np.ndarray:
    return np.array([[int(row[c]) for c in columns(area_id, params)]], dtype=np.int64)


def _exit_column(area_id: str, side: str, at: int) -> str:
    """The name the face gives an exit's border cell (not a layout column): what `explain` outlines."""
    return f"{area_id}_exit_{side}_{at}"


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The grid inside a ring of border cells: each listed exit's prize outside it (section 9)."""
    rows, cols = params.rows, params.cols
    ring: list[Cell] = [("", "", "", None, None)] * ((rows + 2) * (cols + 2))
    for k, name in enumerate(columns(area_id, params)):
        code = int(row[name])
        text = params.arrows[code].name if 0 <= code < 4 else "?"
        if k in params.starts:
            text = f"S{params.starts.index(k) + 1}{text}"
        ring[(k // cols + 1) * (cols + 2) + k % cols + 1] = (name, text, "", None, None)
    for side, at, prize in params.exits:
        r, c = {"top": (0, at + 1), "bottom": (rows + 1, at + 1), "left": (at + 1, 0),
                "right": (at + 1, cols + 1)}[side]
        ring[r * (cols + 2) + c] = (_exit_column(area_id, side, at), prize.name, "", None, None)
    return [("START AT S, FOLLOW THE ARROWS", ring)]


def shapes(area_id: str, params: Params) -> list[tuple[int, int, str] | None]:
    """The grid and its ring of exits are drawn as one grid."""
    return [(params.rows + 2, params.cols + 2, "")]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Each paid START's exit and prize (contract section 5), and its path's cells and exit."""
    grid = np.clip(_grid(area_id, params, row), 0, 3)
    names = columns(area_id, params)
    lines: list[str] = []
    winning: set[str] = set()
    for i, start in enumerate(params.starts):
        won, seen = walk(grid, params.rows, params.cols, start, params.exit_prizes())
        if won[0] < 0:
            continue
        prize = params.prizes[int(won[0])]
        side, at, _ = next(e for e in params.exits if _leaves(params, grid[0], seen[0], e))
        lines.append(f"{area_id}: START {i + 1}'s path leaves by the {side} exit at {at}: "
                     f"{fmt_cents(prize.cents or 0, currency)}.")
        winning |= {names[k] for k in np.flatnonzero(seen[0])} | {_exit_column(area_id, side, at)}
    return lines, winning


def _leaves(params: Params, grid: np.ndarray, seen: np.ndarray, exit_: tuple[str, int, Symbol]) -> bool:
    """Whether a visited cell points out of the grid by this exit (a path leaves by one exit only)."""
    side, at, _ = exit_
    d = SIDES.index(side)
    r, c = {"top": (0, at), "bottom": (params.rows - 1, at), "left": (at, 0),
            "right": (at, params.cols - 1)}[side]
    k = r * params.cols + c
    return bool(seen[k]) and int(grid[k]) == d
