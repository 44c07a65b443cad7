"""The auditor's crossword engine (audit/styles/crossword.py, audit/styles/play.py) on a play entry and
tables written by hand from docs/styles/crossword.md: a grid of three words (CAB across, CAD down,
DEB across), what each set of YOUR LETTERS completes and wins, every rule of section 5 with its exact
reason, and the entries it cannot read."""

from __future__ import annotations

import copy

import numpy as np
import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

A, B, C, D, E = range(5)
# row 0: C A B; row 1: A; row 2: D E B (cells 0..6 in reading order); CAD runs down the first column
AREA = {"id": "cw", "style": "crossword", "letters": 4, "alphabet": ["A", "B", "C", "D", "E"],
        "grids": [["...", ".##", "..."]],
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}],
        "legend": [{"words": 1, "prize": "1"}, {"words": 3, "prize": "5"}],
        "words": ["ACE", "BED", "CAB", "CAD", "DEB"]}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w1", "wins": [win("cw", "1", 100)]},
                  {"id": "w3", "wins": [win("cw", "5", 500)]}]}
GRID = [C, A, B, A, D, E, B]


def table(letters: list[int], cells: list[int] = GRID, tier: str = "w1") -> pl.DataFrame:
    row: dict[str, list[object]] = {"tier": [tier]}
    row |= {f"cw_letter_{j}": [v] for j, v in enumerate(letters)}
    row |= {f"cw_cell_{j}": [v] for j, v in enumerate(cells)}
    return pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8))


def judge(letters: list[int], cells: list[int] = GRID, tier: str = "w1", play: dict = PLAY):
    result = evaluate(table(letters, cells, tier), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("letters", "completed"), [
    ([C, A, B, E], "CAB"), ([C, A, D, E], "CAD"), ([D, E, B, A], "DEB"), ([A, B, D, E], "DEB")])
def test_one_completed_word_wins_the_legends_first_prize(letters, completed):
    assert judge(letters) == (100, [])


def test_two_completed_words_are_a_number_the_legend_does_not_price():
    # C A B D leaves E out: CAB and CAD are completed, DEB is not
    assert judge([C, A, B, D], tier="lose") == (
        0, ["cw: 2 completed words: the legend has no prize for 2"])


def test_three_completed_words_win_the_legends_second_prize():
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | {"letters": 5}
    assert judge([C, A, B, D, E], tier="w3", play=play) == (500, [])


def test_a_letter_shown_twice():
    prize, why = judge([C, C, B, E], tier="lose")
    assert why == ["cw: YOUR LETTERS show a letter twice"]


def test_a_word_outside_the_list_is_named():
    cells = GRID.copy()
    cells[5] = A  # DEB becomes DAB
    assert judge([C, A, B, E], cells) == (100, ["cw: grid 1 holds DAB, not a listed word"])


def test_a_code_out_of_range_and_the_tier_it_does_not_pay():
    cells = GRID.copy()
    cells[5] = 9
    prize, why = judge([C, A, B, E], cells, tier="w3")
    assert prize == 100
    assert why == ["cw: a code out of range in cw_cell_5; cw: grid 1 holds D?B, not a listed word; its wins "
                   "are not its tier 'w3''s (1 win(s) paying 100 cents)"]


def test_a_loser_never_completes_the_legends_smallest_number():
    prize, why = judge([C, A, B, E], tier="lose")
    assert prize == 100 and why == ["its wins are not its tier 'lose''s (1 win(s) paying 100 cents)"]


def test_many_rows_at_once_pay_each_its_own():
    rows = [[C, A, B, E], [C, A, B, D], [D, E, B, A]]
    frame = pl.concat([table(r) for r in rows])
    result = evaluate(frame, {"id": "p1"}, PLAY)
    np.testing.assert_array_equal(result.prize_cents, [100, 0, 100])
    assert [r for r, _ in result.illegal] == [1]


@pytest.mark.parametrize(("change", "words"), [
    ({"alphabet": ["A", "A", "C", "D", "E"]}, "alphabet is not a list of distinct capital letters"),
    ({"alphabet": ["a", "B", "C", "D", "E"]}, "alphabet is not a list of distinct capital letters"),
    ({"letters": 0}, "letters is not 1 .. the alphabet's size"),
    ({"letters": 6}, "letters is not 1 .. the alphabet's size"),
    ({"grids": [["...", ".#"]]}, "grids are not lists of rows of '.' and '#' of one length"),
    ({"grids": []}, "grids are not lists of rows of '.' and '#' of one length"),
    ({"legend": [{"words": 3, "prize": "1"}, {"words": 1, "prize": "5"}]}, "legend's numbers not increasing"),
    ({"legend": [{"words": 1, "prize": "9"}]}, "a prize not one of its prizes"),
    ({"words": ["CAB", "cad"]}, "words are not words of 2 to 12 letters of the alphabet"),
    ({"words": ["CAB", "FED"]}, "words are not words of 2 to 12 letters of the alphabet"),
    ({"prizes": [{"code": "1", "cents": "100"}]}, "prizes is not a non-empty list of {code, cents}"),
])
def test_entries_it_cannot_read_stop_the_step(change, words):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        evaluate(table([C, A, B, E]), {"id": "p1"}, play)
    assert str(caught.value).startswith("manifest play entry: area 'cw': ") and words in str(caught.value)


# Section 9: a BONUS WORD of 3 letters winning prize '5' besides the legend's
BONUS_AREA = AREA | {"bonus": {"length": 3, "prize": "5"}}
BONUS_PLAY = {"max_wins": 2, "areas": [BONUS_AREA],
              "tiers": [{"id": "lose", "wins": []}, {"id": "w1", "wins": [win("cw", "1", 100)]},
                        {"id": "b", "wins": [win("cw", "5", 500, how="bonus")]},
                        {"id": "w1b", "wins": [win("cw", "1", 100), win("cw", "5", 500, how="bonus")]}]}


def bonus_table(letters: list[int], word: list[int], tier: str) -> pl.DataFrame:
    return table(letters, tier=tier).with_columns(
        *(pl.lit(v, dtype=pl.UInt8).alias(f"cw_bonus_{k}") for k, v in enumerate(word)))


def judge_bonus(letters: list[int], word: list[int], tier: str) -> tuple[int, list[str]]:
    result = evaluate(bonus_table(letters, word, tier), {"id": "p1"}, BONUS_PLAY)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


def test_a_completed_bonus_word_pays_its_prize_besides_the_legends():
    # C A B E: CAB completed (one word, $1) and the bonus word ACE completed ($5)
    assert judge_bonus([C, A, B, E], [A, C, E], "w1b") == (600, [])


def test_a_bonus_word_left_incomplete_pays_nothing_more():
    # C A B E: BED needs D
    assert judge_bonus([C, A, B, E], [B, E, D], "w1") == (100, [])


def test_a_bonus_word_completed_on_a_tier_that_does_not_list_it_is_refused():
    assert judge_bonus([C, A, B, E], [A, C, E], "w1") == (
        600, ["its wins are not its tier 'w1''s (2 win(s) paying 600 cents)"])


def test_a_bonus_word_not_listed_or_out_of_range_is_named():
    assert judge_bonus([C, A, B, E], [E, E, E], "w1b") == (
        600, ["cw: the bonus word EEE is not a listed word"])
    assert judge_bonus([C, A, B, E], [A, 9, E], "w1") == (
        100, ["cw: a code out of range in cw_bonus_1; cw: the bonus word A?E is not a listed word"])


@pytest.mark.parametrize("bonus", [{"length": 3, "prize": "9"}, {"length": 1, "prize": "5"},
                                   {"length": 3}, {"length": 3, "prize": "5", "by": 2}, [3, "5"]])
def test_a_bonus_entry_it_cannot_read_stops_the_step(bonus):
    play = copy.deepcopy(BONUS_PLAY)
    play["areas"][0]["bonus"] = bonus
    with pytest.raises(ValueError) as caught:
        evaluate(bonus_table([C, A, B, E], [A, C, E], "w1b"), {"id": "p1"}, play)
    assert str(caught.value) == ("manifest play entry: area 'cw': bonus is not {length: 2 to 12, prize: one "
                                 "of its prizes}")
