"""A lines area marked by a caller (docs/styles/lines.md, section 1b): the board's cells show pictures of
a deck, a cell is marked when the caller shows its picture, and a line is complete when its cells are
all marked. Section 7, steps 1b and 2b: which cells are marked, drawn with weights that make the whole
layout (the caller's pictures in order, the board) uniform among those that pay the tier; then the
pictures."""

from __future__ import annotations

from collections.abc import Mapping
from math import perm
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import AreaReading
from poolgen.rng import Stream, row_permutations, weighted_choices
from poolgen.styles.lines.placements import Params, marked

MAX_PICTURES = 255  # a code is a uint8


def read_calls(ctx: AreaReading, table: Mapping[str, Any], where: str, pictures: tuple[Symbol, ...],
               cells: int) -> int:
    """`calls` (section 1b): how many of the pictures the caller shows, 1 .. P - 1; 0 when absent."""
    r = ctx.r
    if "calls" not in table:
        return 0
    for key in ("symbol", "symbols"):
        if key in table:
            raise r.fail(f"{where}.{key}", "a lines area with `calls` marks the cells the caller's pictures "
                                           "show: no `symbol` or `symbols`")
    if not cells <= len(pictures) <= MAX_PICTURES:
        raise r.fail(f"{where}.pictures", f"{len(pictures)} pictures for {cells} cells: a board marked by a "
                                          f"caller shows each picture at most once ({cells} to "
                                          f"{MAX_PICTURES} pictures)")
    return ctx.whole(table, "calls", where, 1, high=len(pictures) - 1)


def weight(params: Params, m: int) -> int:
    """The boards of a placement of m marked cells, given the caller's pictures: the marked cells' ordered
    choices among the calls, times the other cells' among the pictures not called."""
    cells, calls = params.rows * params.cols, params.calls
    return perm(calls, m) * perm(len(params.pictures) - calls, cells - m)


def choose(params: Params, valid: np.ndarray, k: int, stream: Stream) -> np.ndarray:
    """Step 1b: k placements among `valid` (increasing), each with probability in proportion to its
    `weight` (`weighted_choices`, docs/randomness.md)."""
    cells = params.rows * params.cols
    of_marks = [weight(params, j) for j in range(cells + 1)]  # a placement's weight is its marked cells'
    weights = [of_marks[x] for x in marked(cells)[valid].tolist()]
    out: np.ndarray = valid[weighted_choices(stream, weights, k)]
    return out


def pictures(params: Params, marks: np.ndarray, stream: Stream) -> tuple[np.ndarray, np.ndarray]:
    """Step 2b: per row (marks: rows x cells, True where marked), the caller's pictures (the first `calls`
    of `row_permutations(P)`), then the board: the j-th marked cell (cell order) the call at place
    `row_permutations(calls)[j]`, the j-th unmarked cell the permutation's picture at place calls + j."""
    k, calls = marks.shape[0], params.calls
    deck = row_permutations(stream, k, len(params.pictures))
    pick = row_permutations(stream, k, calls)
    r = np.arange(k)[:, None]
    on = np.clip(np.cumsum(marks, axis=1) - 1, 0, calls - 1)
    off = np.clip(np.cumsum(~marks, axis=1) - 1, 0, len(params.pictures) - calls - 1)
    board = np.where(marks, deck[r, pick[r, on]], deck[r, calls + off])
    return deck[:, :calls], board


def is_complete(calls: np.ndarray, board: np.ndarray, line: tuple[int, ...]) -> np.ndarray:
    """Per row: whether every cell of `line` shows one of the caller's pictures."""
    part = board[:, list(line)]
    out: np.ndarray = (part[:, :, None] == calls[:, None, :]).any(axis=2).all(axis=1)
    return out
