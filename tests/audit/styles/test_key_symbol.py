"""audit's key_number_match engine on an area of no WINNING NUMBERS (a key symbol game,
docs/styles/key_number_match.md section 2: `winning` 0), on play entries and rows written by hand: a
special symbol wins, a number never matches, and distinct numbers still hold the losing spots apart."""

from __future__ import annotations

import polars as pl

from audit.styles import key_number_match
from audit.styles.interface import Reasons
from tests.support.play_entries import KN_AREA, edited, refusal

AREA = KN_AREA | {"winning": 0}


def _table(your: list[int], prize: list[int]) -> pl.DataFrame:
    row = {f"play_your_{j}": [v] for j, v in enumerate(your)}
    row |= {f"play_prize_{j}": [v] for j, v in enumerate(prize)}
    return pl.DataFrame(row).cast(pl.UInt8)


def test_only_the_special_symbols_of_an_area_of_no_winning_numbers_win():
    reasons = Reasons()
    slots = key_number_match.evaluate(_table([0, 6, 7], [1, 2, 1]), AREA, reasons)  # 1, BAG, 2X
    assert [bool(s.won[0]) for s in slots] == [False, True, True]
    assert [int(s.by[0] * s.cents[0]) for s in slots if s.won[0]] == [500, 200]
    assert reasons.illegal() == []


def test_distinct_numbers_in_an_area_of_no_winning_numbers():
    area = AREA | {"distinct_numbers": True}
    reasons = Reasons()
    key_number_match.evaluate(_table([0, 1, 6], [1, 1, 1]), area, reasons)
    assert reasons.illegal() == []
    key_number_match.evaluate(_table([2, 2, 6], [1, 1, 1]), area, reasons)
    assert reasons.illegal() == [(0, "play: a YOUR NUMBER that matches nothing shows twice")]


def test_a_negative_count_of_winning_numbers_is_refused():
    play = edited(lambda p: p["areas"][0].update(winning=-1))
    assert refusal(play) == "manifest play entry: area 'play': winning is not a whole number >= 0"
