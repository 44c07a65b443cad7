"""The auditor's maze engine (audit/styles/maze.py, audit/styles/play.py) on a play entry and tables
written by hand from docs/styles/maze.md: paths that leave by listed exits, by unlisted ones and in
loops, corners, two STARTs on one exit, rule 1 with its exact reason, and the entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

U, R, D, L = 0, 1, 2, 3
# a 3 x 3 grid, STARTs at cells 3 (middle left) and 5 (middle right)
AREA = {"id": "mz", "style": "maze", "rows": 3, "cols": 3, "arrows": ["UP", "RIGHT", "DOWN", "LEFT"],
        "starts": [3, 5],
        "exits": [{"side": "top", "at": 1, "prize": "2"}, {"side": "bottom", "at": 1, "prize": "9"},
                  {"side": "left", "at": 0, "prize": "2"}],
        "prizes": [{"code": "2", "cents": 200}, {"code": "9", "cents": 900}]}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w2", "wins": [win("mz", "2", 200)]},
                  {"id": "w9", "wins": [win("mz", "9", 900)]},
                  {"id": "w22", "wins": [win("mz", "2", 200), win("mz", "2", 200)]},
                  {"id": "w29", "wins": [win("mz", "2", 200), win("mz", "9", 900)]}]}


def judge(cells: list[int | None], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row = {"tier": [tier]} | {f"mz_cell_{k}": [v] for k, v in enumerate(cells)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("cells", "tier", "cents"), [
    # START 3 leaves left at row 1 (not listed), START 5 right at row 1 (not listed)
    ([U, U, U, L, U, R, U, U, U], "lose", 0),
    # START 3 -> 4 -> 1 -> top 1 ($2); START 5 -> 4 (visited by nobody on its own path) -> 1 -> top 1 ($2)
    ([U, U, U, R, U, L, U, U, U], "w22", 400),
    # START 3 -> 4 -> 7 -> bottom 1 ($9); START 5 loops 5 <-> 2
    ([U, U, D, R, D, U, U, D, U], "w9", 900),
    # START 3 up to 0, the corner, then left: left 0 ($2); START 5 -> 4 -> 7 -> bottom 1 ($9)
    ([L, U, U, U, D, L, U, D, U], "w29", 1100),
    # START 3 -> 0 -> 1 -> 4 -> 3: a loop through its own START; START 5 leaves right
    ([R, D, U, U, L, R, U, U, U], "lose", 0),
    # the corner 0 pointing up leaves by top 0 (not listed), not left 0
    ([U, U, U, U, U, R, U, U, U], "lose", 0),
])
def test_a_starts_path_wins_the_prize_of_the_exit_it_leaves_by(cells, tier, cents):
    assert judge(cells, tier) == (cents, [])


def test_wins_not_the_tiers_are_illegal():
    prize, why = judge([U, U, U, R, U, L, U, U, U], "w2")
    assert prize == 400 and why == ["its wins are not its tier 'w2''s (2 win(s) paying 400 cents)"]


def test_a_code_out_of_range():
    prize, why = judge([U, U, 4, L, U, R, U, U, None], "lose")
    assert why == ["mz: a cell code out of range (0, 0, 4, 3, 0, 1, 0, 0, null)"]


@pytest.mark.parametrize("change", [
    {"rows": 1}, {"cols": 9}, {"rows": "3"}, {"arrows": ["UP", "DOWN", "RIGHT", "LEFT"]}, {"starts": []},
    {"starts": [3, 3]}, {"starts": [9]}, {"starts": [0, 1, 2, 3, 4]}, {"exits": []},
    {"exits": [{"side": "up", "at": 0, "prize": "2"}]}, {"exits": [{"side": "top", "at": 3, "prize": "2"}]},
    {"exits": [{"side": "top", "at": 0, "prize": "7"}]},
    {"exits": [{"side": "top", "at": 0, "prize": "2"}, {"side": "top", "at": 0, "prize": "9"}]},
    {"prizes": []}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge([U, U, U, L, U, R, U, U, U], "lose", play)
    assert str(caught.value).startswith("manifest play entry: area 'mz': ")
