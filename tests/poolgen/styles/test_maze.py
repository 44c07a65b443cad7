"""maze layouts (poolgen/styles/maze.py) read back here from docs/styles/maze.md alone: a pool of Arrow
Maze (specs/examples/arrow_maze.toml, its counts cut to a tenth) pays every START exactly its tier's
prizes, walked here cell by cell; a tier's grids are uniform among the grids that pay it (2 x 2, all
256 grids counted); the loader refuses, in one line, what it cannot lay out."""

from __future__ import annotations

import tomllib
from collections import Counter
from itertools import product

import numpy as np
import pytest
from scipy.stats import chisquare

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import ROOT, SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = ROOT / "specs" / "examples" / "arrow_maze.toml"
STEP = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}  # UP, RIGHT, DOWN, LEFT
SIDE = {0: "top", 1: "right", 2: "bottom", 3: "left"}


def exit_of(grid: list[int], rows: int, cols: int, start: int) -> tuple[str, int] | None:
    """Section 1, one path at a time: the exit (side, at) the START's path leaves by, None for a loop."""
    r, c = divmod(start, cols)
    seen: set[tuple[int, int]] = set()
    while (r, c) not in seen:
        seen.add((r, c))
        d = grid[r * cols + c]
        nr, nc = r + STEP[d][0], c + STEP[d][1]
        if not (0 <= nr < rows and 0 <= nc < cols):
            return SIDE[d], (c if d in (0, 2) else r)
        r, c = nr, nc
    return None


def lay_out(spec, seed=SEED_A):
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(seed, "test", "order"), base.size)]
    return pool, tiers, spec.play.lay_out(spec, pool, tiers, derive_stream(seed, "test", "layout"))


def test_every_ticket_pays_exactly_its_tiers_prizes(tmp_path):
    doc = tomllib.loads(EXAMPLE.read_text())
    doc["printed"] |= {"order_tickets": 24_000, "pool_tickets": 24_000}
    for t in doc["tiers"]:
        t["count"] //= 10
    (tmp_path / "m.toml").write_text(dumps(doc))
    spec = load_spec(tmp_path / "m.toml")
    pool, tiers, cols = lay_out(spec)
    grid = np.stack([cols[f"maze_cell_{k}"] for k in range(25)], axis=1).astype(int)
    assert grid.min() == 0 and grid.max() == 3
    paid = {(e["side"], e["at"]): e["prize"] for e in doc["areas"][0]["exits"]}
    got = Counter()
    for row, t in zip(grid.tolist(), tiers.tolist(), strict=True):
        won = sorted(paid[x] for x in (exit_of(row, 5, 5, s) for s in (10, 14)) if x in paid)
        want = sorted(w.prize.code for w in spec.play.wins[pool.tiers[t].id])
        assert won == want
        got[pool.tiers[t].id] += 1
    assert got == {t.id: t.count for t in pool.tiers}
    loops = [exit_of(row, 5, 5, 10) is None for row in grid[tiers == 0].tolist()]
    assert 0.3 < np.mean(loops) < 0.7  # losers both loop and leave by unpaid exits


def _doc(tiers=None, **area: object) -> dict:
    arrows = [{"group": "ar", "code": c, "symbol": c} for c in ("UP", "RIGHT", "DOWN", "LEFT")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "mz", "style": "maze", "rows": 2, "cols": 2, "arrows": "ar", "starts": [0],
            "exits": [{"side": "bottom", "at": 1, "prize": "1"}, {"side": "right", "at": 1, "prize": "2"}],
            "prizes": "pz"}
    base.update(area)
    tiers = tiers or [{"id": "t", "count": 3000, "wins": [{"area": "mz", "prize": "1", "how": "match"}]}]
    return base_doc([base], arrows + prizes, tiers, pool_tickets=8000)


def test_a_tiers_grids_are_uniform_among_the_grids_that_pay_it(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_doc()))
    spec = load_spec(tmp_path / "g.toml")
    pool, tiers, cols = lay_out(spec)
    grid = np.stack([cols[f"mz_cell_{k}"] for k in range(4)], axis=1).astype(int)
    paid = {("bottom", 1): "1", ("right", 1): "2"}
    for tier, prize, size in ((1, "1", 8), (0, None, 240)):
        allowed = [g for g in product(range(4), repeat=4) if paid.get(exit_of(list(g), 2, 2, 0)) == prize]
        seen = Counter(tuple(g) for g in grid[tiers == tier].tolist())
        assert set(seen) <= set(allowed)
        counts = [seen[g] for g in allowed]
        assert len(allowed) == size and chisquare(counts).pvalue > 1e-4, counts


@pytest.mark.parametrize(("change", "message"), [
    ({"rows": 9}, "areas[0].rows: must be at most 8, got 9"),
    ({"cols": 1}, "areas[0].cols: must be at least 2, got 1"),
    ({"starts": [0, 0]}, "areas[0].starts: 1 to 4 distinct cells 0..3"),
    ({"starts": [4]}, "areas[0].starts: 1 to 4 distinct cells 0..3"),
    ({"starts": []}, "areas[0].starts: 1 to 4 distinct cells 0..3"),
    ({"exits": []}, "areas[0].exits: list the exits that pay"),
    ({"exits": [{"side": "up", "at": 0, "prize": "1"}]}, "areas[0].exits[0].side: 'up': one of top, right"),
    ({"exits": [{"side": "left", "at": 2, "prize": "1"}]}, "areas[0].exits[0].at: must be at most 1, got 2"),
    ({"exits": [{"side": "left", "at": 0, "prize": "1"}, {"side": "left", "at": 0, "prize": "2"}]},
     "areas[0].exits[1]: exit left 0 listed twice"),
    ({"exits": [{"side": "left", "at": 0, "prize": "7"}]}, "areas[0].exits[0].prize: not one of the area's"),
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


@pytest.mark.parametrize(("wins", "message"), [
    (["1", "1"], "area 'mz' (maze): each of the 1 START(s) wins one prize at most"),
])
def test_tiers_it_cannot_lay_out_are_refused(tmp_path, wins, message):
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "mz", "prize": p, "how": "match"} for p in wins]}]
    doc = _doc(tiers)
    doc["play"]["max_wins"] = 2
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: tiers[0].wins: {message}")


def test_a_tier_the_probe_finds_too_rare_is_refused(tmp_path):
    """A 6 x 6 grid whose START is a corner: leaving by the far corner's exit is rarer than 16 in 65,536."""
    doc = _doc(rows=6, cols=6, exits=[{"side": "bottom", "at": 5, "prize": "1"}])
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: tiers[0].wins: area 'mz' (maze): 9 of 65,536 probe grids pay exactly these prizes; at "
             "least 16 (a layout by rejection must stay cheap)")


def test_the_face_rings_the_grid_with_its_exits_and_outlines_a_winning_path(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_doc()))
    area = load_spec(tmp_path / "g.toml").play.areas[0]
    row = {"mz_cell_0": 1, "mz_cell_1": 2, "mz_cell_2": 0, "mz_cell_3": 2}  # right, down, up, down
    [(title, cells)] = area.module.face("mz", area.params, row)
    assert area.module.shapes("mz", area.params) == [(4, 4, "")]
    # the 4 x 4 ring in reading order: the grid's cells at 5, 6, 9, 10; right of row 1 at 11, below
    # column 1 at 14
    assert [(i, c[0], c[1]) for i, c in enumerate(cells) if c[0]] == [
        (5, "mz_cell_0", "S1RIGHT"), (6, "mz_cell_1", "DOWN"), (9, "mz_cell_2", "UP"),
        (10, "mz_cell_3", "DOWN"),
        (11, "mz_exit_right_1", "$2"), (14, "mz_exit_bottom_1", "$1")]
    words, winning = area.module.explain("mz", area.params, row)
    assert words == ["mz: START 1's path leaves by the bottom exit at 1: $1.00."]
    assert winning == {"mz_cell_0", "mz_cell_1", "mz_cell_3", "mz_exit_bottom_1"}
