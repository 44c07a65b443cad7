"""The auditor's crossword engine on an area with a DOUBLER cell a grid (docs/styles/crossword.md section
11), entry and tables written by hand: two copies of the grid CAB / A / DEB (cells 0 1 2 / 3 / 4 5 6;
words CAB, DEB across, CAD down), grid 1 paying 1 and 3 words '1' and '5', grid 2 paying 1 word '2',
doubler by 2; a legend's win is by 2 exactly when a completed word of its grid holds that grid's doubler
cell, a doubler column out of range is rule 1's, doubler entries it cannot read stop the step, and step 8
lists the doubler cells as not tested."""

from __future__ import annotations

import copy

import numpy as np
import polars as pl
import pytest

from audit.stats.styles import pictures
from audit.styles.play import evaluate
from tests.support.play_entries import win

A, B, C, D, E = range(5)
GRID = [C, A, B, A, D, E, B]
AREA = {"id": "cw", "style": "crossword", "letters": 4, "alphabet": ["A", "B", "C", "D", "E"],
        "grids": [["...", ".##", "..."], ["...", ".##", "..."]],
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}, {"code": "2", "cents": 200}],
        "legends": [[{"words": 1, "prize": "1"}, {"words": 3, "prize": "5"}], [{"words": 1, "prize": "2"}]],
        "words": ["ACE", "BED", "CAB", "CAD", "DEB"], "doubler": {"by": 2}}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "g1", "wins": [win("cw", "1", 100)]},
                  {"id": "g1x2", "wins": [win("cw", "1", 100, by=2)]},
                  {"id": "both", "wins": [win("cw", "1", 100), win("cw", "2", 200)]},
                  {"id": "x2both", "wins": [win("cw", "1", 100, by=2), win("cw", "2", 200)]},
                  {"id": "x2top", "wins": [win("cw", "5", 500, by=2), win("cw", "2", 200)]},
                  {"id": "x2x3", "wins": [win("cw", "1", 100, by=2), win("cw", "2", 200, by=3)]}]}
FREE = copy.deepcopy(AREA) | {"doubler": {"by": 2, "free": True}}


def judge(letters: list[int], marks: list[object], tier: str, area: dict = AREA):
    row: dict[str, list[object]] = {"tier": [tier]}
    row |= {f"cw_letter_{j}": [v] for j, v in enumerate(letters)}
    row |= {f"cw_cell_{j}": [v] for j, v in enumerate(GRID + GRID)}
    row |= {f"cw_doubler_{g}": [v] for g, v in enumerate(marks)}
    frame = pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8))
    result = evaluate(frame, {"id": "p1"}, PLAY | {"areas": [area]})
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


def test_a_completed_word_holding_its_grids_doubler_cell_doubles_that_grids_prize_alone():
    # C A B E: CAB completed in each grid; grid 1's doubler in CAB (cell 2), grid 2's in DEB (cell 6)
    assert judge([C, A, B, E], [2, 6], "x2both") == (400, [])


def test_a_doubler_cell_in_an_incomplete_word_doubles_nothing():
    assert judge([C, A, B, E], [6, 6], "x2both") == (
        300, ["its wins are not its tier 'x2both''s (2 win(s) paying 300 cents)"])
    assert judge([C, A, B, E], [6, 6], "both") == (300, [])


def test_a_crossing_cell_doubles_through_either_of_its_words():
    # C A D E: CAD (down) completed in each grid, CAB and DEB not; cell 0 is in CAB and CAD
    assert judge([C, A, D, E], [0, 6], "x2both") == (400, [])


def test_a_doubler_cell_in_completed_words_of_no_prize_wins_nothing():
    # C A B D: CAB and CAD in each grid, 2 words: no prize to double (and rule 4 names the number)
    assert judge([C, A, B, D], [0, 0], "lose") == (0, [
        "cw: grid 1: 2 completed words: its legend has no prize for 2, grid 2: 2 completed words: its legend "
        "has no prize for 2"])


def test_a_doubler_column_out_of_range_is_rule_1():
    assert judge([C, A, B, E], [2, 7], "x2both") == (400, ["cw: a code out of range in cw_doubler_1"])
    assert judge([C, A, B, E], [None, 6], "both") == (300, ["cw: a code out of range in cw_doubler_0"])


@pytest.mark.parametrize("doubler", [2, {"by": 1}, {"by": 11}, {"by": 2, "cell": 0}, {"by": "2"}, {},
                                     {"by": 2, "free": 1}, {"free": True}, {"by": [2]}, {"by": [2, 11]},
                                     {"by": [2, 3, 4]}])
def test_doubler_entries_it_cannot_read_stop_the_step(doubler):
    with pytest.raises(ValueError) as caught:
        judge([C, A, B, E], [2, 6], "g1x2", area=copy.deepcopy(AREA) | {"doubler": doubler})
    assert str(caught.value) == \
        "manifest play entry: area 'cw': doubler is not {by: 2 to 10 (or with legends one a grid), " \
        "free: true or false (optional)}"


def test_a_free_doubler_cell_is_matched_whatever_your_letters_and_still_doubles():
    # A B C E (no D): grid 1's free cell 4 (the D of CAD and DEB) completes both: 3 words, '5' doubled;
    # grid 2's free cell 6 (DEB's B) leaves DEB short of its D: CAB alone, '2'
    assert judge([A, B, C, E], [4, 6], "x2top", area=FREE) == (1200, [])
    # the same row with marked letters (not free): CAB alone in each grid, grid 1's mark in no such word
    assert judge([A, B, C, E], [4, 6], "both") == (300, [])
    marked = copy.deepcopy(AREA) | {"doubler": {"by": 2, "free": False}}
    assert judge([A, B, C, E], [4, 6], "both", area=marked) == (300, [])


def test_a_doubler_of_one_k_a_grid_pays_each_grids_prize_by_its_own_k():
    # C A B E: CAB in each grid, each grid's doubler in it: grid 1's $1 x 2, grid 2's $2 x 3
    twice_thrice = copy.deepcopy(AREA) | {"doubler": {"by": [2, 3]}}
    assert judge([C, A, B, E], [2, 1], "x2x3", area=twice_thrice) == (800, [])
    assert judge([C, A, B, E], [2, 1], "x2x3") == (
        600, ["its wins are not its tier 'x2x3''s (2 win(s) paying 600 cents)"])


def test_step_8_lists_the_doubler_cells_as_not_tested():
    letters = {f"cw_letter_{j}": np.array([j, 3 - j], dtype=np.uint8) for j in range(4)}
    _, _, listed = pictures.crossword(AREA, PLAY, {}, letters.__getitem__)
    assert listed == [
        "layout: cw: the grids, alike only between tiers whose targets every drawn grid admits, which one "
        "row does not tell; YOUR LETTERS as a set, which decide the prize (crossword.md section 8); the "
        "doubler cells, drawn with the grids (section 11)"]
