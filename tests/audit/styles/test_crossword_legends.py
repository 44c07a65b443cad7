"""The auditor's crossword engine on an area of a legend a grid (docs/styles/crossword.md section 10),
entry and tables written by hand: two copies of the grid CAB / A / DEB (words CAB, DEB across, CAD
down), grid 1 paying 1 and 3 words '1' and '5', grid 2 paying 1 word '2'; each grid's words win its own
legend's prize, a grid's unpriced number is named with its grid, and entries of legends it cannot read
stop the step."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

A, B, C, D, E = range(5)
GRID = [C, A, B, A, D, E, B]
SECOND = [B, E, D, E, D, E, B]
AREA = {"id": "cw", "style": "crossword", "letters": 4, "alphabet": ["A", "B", "C", "D", "E"],
        "grids": [["...", ".##", "..."], ["...", ".##", "..."]],
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}, {"code": "2", "cents": 200}],
        "legends": [[{"words": 1, "prize": "1"}, {"words": 3, "prize": "5"}], [{"words": 1, "prize": "2"}]],
        "words": ["ACE", "BED", "CAB", "CAD", "DEB"]}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "g1", "wins": [win("cw", "1", 100)]},
                  {"id": "g2", "wins": [win("cw", "2", 200)]},
                  {"id": "both", "wins": [win("cw", "1", 100), win("cw", "2", 200)]}]}


def judge(letters: list[int], second: list[int] = GRID, tier: str = "both", area: dict = AREA):
    row: dict[str, list[object]] = {"tier": [tier]}
    row |= {f"cw_letter_{j}": [v] for j, v in enumerate(letters)}
    row |= {f"cw_cell_{j}": [v] for j, v in enumerate(GRID + second)}
    frame = pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8))
    result = evaluate(frame, {"id": "p1"}, PLAY | {"areas": [area]})
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


def test_each_grid_wins_its_own_legends_prize():
    # C A B E: CAB in each grid, not CAD nor DEB: one word a grid, '1' in grid 1 and '2' in grid 2
    assert judge([C, A, B, E]) == (300, [])


def test_words_of_two_grids_are_not_added_up():
    # grid 2 reads BED / E / DEB (BED down): nothing completed there (no D), so only grid 1's word pays
    assert judge([C, A, B, E], SECOND, tier="g1") == (100, [])


def test_a_grids_unpriced_number_is_named_with_its_grid():
    # C A B D: CAB and CAD in each grid, 2 words: neither legend prices 2
    assert judge([C, A, B, D], tier="lose") == (0, [
        "cw: grid 1: 2 completed words: its legend has no prize for 2, grid 2: 2 completed words: its legend "
        "has no prize for 2"])


def test_a_win_in_the_other_grid_is_not_the_tiers():
    assert judge([C, A, B, E], SECOND, tier="g2") == (
        100, ["its wins are not its tier 'g2''s (1 win(s) paying 100 cents)"])


@pytest.mark.parametrize(("change", "words"), [
    ({"legend": [{"words": 1, "prize": "1"}]}, "legends is not one legend a grid (and no legend)"),
    ({"legends": [[{"words": 1, "prize": "1"}]]}, "legends is not one legend a grid (and no legend)"),
    ({"legends": [[{"words": 1, "prize": "1"}], [{"words": 2, "prize": "1"}]]}, "a prize is in two legends"),
    ({"legends": [[{"words": 1, "prize": "1"}], [{"words": 0, "prize": "2"}]]},
     "legend's numbers not increasing, or a prize not one of its prizes"),
])
def test_legends_it_cannot_read_stop_the_step(change, words):
    with pytest.raises(ValueError) as caught:
        judge([C, A, B, E], area=copy.deepcopy(AREA) | change)
    assert str(caught.value) == f"manifest play entry: area 'cw': {words}"
