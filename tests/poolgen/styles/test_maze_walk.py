"""maze's `won_by` (poolgen/styles/maze.py: the walk lay_out keeps or rejects grids by, from a table of
each cell's successor) against `walk`, the path as the contract's section 1 follows it arrow by arrow:
the same prize index for every grid, START and exit list, on grids drawn from a real stream (paths that
leave by a listed exit, by an unlisted one, or come back to a cell they visited)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from poolgen.rng import derive_stream, integers
from poolgen.styles.maze import MAX_SIDE, SIDES, walk, won_by

SEED = bytes(range(32))


def _exits(rows: int, cols: int, every: int) -> tuple[tuple[str, int, int], ...]:
    """Every `every`-th exit of the grid's sides, each paying a prize index of its own."""
    sides = [(side, at) for side in SIDES for at in range(cols if side in ("top", "bottom") else rows)]
    return tuple((side, at, i % 5) for i, (side, at) in enumerate(sides[::every]))


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (3, 4), (5, 2), (MAX_SIDE, MAX_SIDE)])
def test_each_start_wins_what_the_arrow_by_arrow_walk_wins(rows, cols):
    stream = derive_stream(SEED, "maze", str(rows), str(cols))
    grid = integers(stream, 4, size=3_000 * rows * cols).reshape(3_000, rows * cols)
    seen = set()
    for start, every in itertools.product(range(rows * cols), (1, 2, 3)):
        exits = _exits(rows, cols, every)
        got = won_by(grid, rows, cols, start, exits)
        want = walk(grid, rows, cols, start, exits)[0]
        assert got.tolist() == want.tolist()
        seen |= set(got.tolist())
    assert -1 in seen and len(seen) > 1  # paths that win nothing and paths that win


def test_a_grid_of_one_loop_wins_nothing_and_an_arrow_out_wins_its_exit():
    # 2 x 2: RIGHT, DOWN / UP, LEFT turns around for ever; the second grid leaves at the top of column 1
    grid = np.array([[1, 2, 0, 3], [1, 0, 0, 3]])
    exits = (("top", 1, 4), ("left", 0, 2))
    assert won_by(grid, 2, 2, 0, exits).tolist() == walk(grid, 2, 2, 0, exits)[0].tolist() == [-1, 4]
