"""The auditor's bingo engine (audit/styles/bingo.py, audit/styles/play.py) on a play entry and tables
written by hand from docs/styles/bingo.md: what each card's highest pattern wins, every rule of
section 5 with its exact reason, and the entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

FREE = 75
AREA = {"id": "bg", "style": "bingo", "numbers": [str(v) for v in range(1, 76)] + ["FREE"], "cards": 2,
        "free": True, "calls": 5,
        "patterns": [{"shape": "line", "prize": "2"}, {"shape": "corners", "prize": "5"}],
        "prizes": [{"code": "2", "cents": 200}, {"code": "5", "cents": 500}]}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "l", "wins": [win("bg", "2", 200)]},
                  {"id": "c", "wins": [win("bg", "5", 500)]},
                  {"id": "ll", "wins": [win("bg", "2", 200), win("bg", "2", 200)]}]}
# A card by columns: B 1-5, I 16-20, N 31,32,FREE,33,34, G 46-50, O 61-65 (stored: number - 1)
CARD = [[1, 16, 31, 46, 61], [2, 17, 32, 47, 62], [3, 18, 0, 48, 63], [4, 19, 33, 49, 64],
        [5, 20, 34, 50, 65]]


def codes(card: list[list[int]]) -> list[int]:
    return [FREE if v == 0 else v - 1 for line in card for v in line]


def judge(calls: list[int], cards: list[list[int]], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row = {"tier": [tier]} | {f"bg_call_{i}": [v - 1] for i, v in enumerate(calls)}
    for k, card in enumerate(cards):
        row |= {f"bg_card{k}_{c}": [v] for c, v in enumerate(card)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


OTHER = codes([[6, 21, 35, 51, 66], [7, 22, 36, 52, 67], [8, 23, 0, 53, 68], [9, 24, 37, 54, 69],
               [10, 25, 38, 55, 70]])


@pytest.mark.parametrize(("calls", "tier", "cents"), [
    ([11, 26, 39, 56, 71], "lose", 0),            # nothing marked
    ([1, 16, 31, 46, 61], "l", 200),              # the top row
    ([3, 18, 48, 63, 75], "l", 200),              # the middle row through FREE
    ([1, 61, 5, 65, 75], "c", 500),               # four corners (also no line: one prize)
    ([31, 32, 33, 34, 10], "l", 200),             # the N column with FREE
])
def test_each_card_wins_its_highest_pattern(calls, tier, cents):
    assert judge(calls, [codes(CARD), OTHER], tier) == (cents, [])


def test_each_card_wins_once_and_the_tier_must_list_both():
    second = list(OTHER)
    second[10:15] = [2, 17, FREE, 47, 62]  # the middle row 3, 18, FREE, 48, 63 as CARD's
    calls = [3, 18, 48, 63, 75]
    assert judge(calls, [codes(CARD), second], "ll") == (400, [])
    assert judge(calls, [codes(CARD), second], "l") == (
        400, ["its wins are not its tier 'l''s (2 win(s) paying 400 cents)"])


def test_calls_repeated_or_out_of_range():
    assert judge([1, 1, 2, 3, 4], [codes(CARD), OTHER], "lose")[1] == [
        "bg: the caller's numbers are not distinct numbers 1-75 (0, 0, 1, 2, 3)"]
    assert judge([1, 2, 3, 4, 76], [codes(CARD), OTHER], "lose")[1] == [
        "bg: the caller's numbers are not distinct numbers 1-75 (0, 1, 2, 3, 75)"]


def test_a_card_that_is_not_a_bingo_card():
    bad = codes(CARD)
    bad[1] = 0  # the number 1 in column I
    prize, why = judge([11, 26, 39, 56, 71], [bad, OTHER], "lose")
    assert why == [f"bg: card 1 is not a bingo card ({', '.join(map(str, bad))})"]
    centre = list(OTHER)
    centre[12] = 33  # a number where the FREE space is
    assert judge([11, 26, 39, 56, 71], [codes(CARD), centre], "lose")[1] == [
        f"bg: card 2 is not a bingo card ({', '.join(map(str, centre))})"]


@pytest.mark.parametrize("change", [{"cards": 9}, {"cards": 0}, {"calls": 75}, {"free": 1},
                                    {"numbers": [str(v) for v in range(1, 76)]},
                                    {"patterns": []}, {"patterns": [{"shape": "star", "prize": "2"}]},
                                    {"patterns": [{"shape": "line", "prize": "7"}]},
                                    {"patterns": [{"shape": "line", "prize": "5"},
                                                  {"shape": "corners", "prize": "2"}]}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge([11, 26, 39, 56, 71], [codes(CARD), OTHER], "lose", play)
    assert str(caught.value).startswith("manifest play entry: area 'bg': ")


def test_six_cards_each_win_and_the_sixth_is_named_in_its_reason():
    """Section 2's 1..8 cards: a six-card entry is read; cards 1 and 6 each win a line (two cards may
    show the same numbers), and a sixth card that is not a bingo card is named as card 6."""
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | {"cards": 6}
    calls = [1, 16, 31, 46, 61]  # the top row of CARD
    assert judge(calls, [codes(CARD)] + [OTHER] * 4 + [codes(CARD)], "ll", play) == (400, [])
    centre = list(OTHER)
    centre[12] = 33
    assert judge(calls, [codes(CARD)] + [OTHER] * 4 + [centre], "l", play) == (
        200, [f"bg: card 6 is not a bingo card ({', '.join(map(str, centre))})"])


# A custom T (the top row and the centre column) over the catalogue's postage stamp (section 1).
T = [0, 1, 2, 3, 4, 7, 12, 17, 22]
CUSTOM = AREA | {"calls": 10, "cards": 1,
                 "patterns": [{"shape": "postage_stamp", "prize": "2"},
                              {"name": "T", "cells": [T], "prize": "5"}]}
CUSTOM_PLAY = {"max_wins": 1, "areas": [CUSTOM],
               "tiers": [{"id": "lose", "wins": []}, {"id": "stamp", "wins": [win("bg", "2", 200)]},
                         {"id": "t", "wins": [win("bg", "5", 500)]}]}
NONE = [11, 12, 13, 14, 15, 26, 27, 28, 29, 30]  # on neither card


@pytest.mark.parametrize(("calls", "tier", "cents"), [
    ([1, 16, 31, 46, 61, 32, 33, 34, 11, 12], "t", 500),        # the T: top row, N column with FREE
    ([1, 16, 2, 17, 11, 12, 13, 14, 15, 26], "stamp", 200),     # the top-left 2 x 2 block
    ([64, 49, 65, 50, 11, 12, 13, 14, 15, 26], "stamp", 200),   # the bottom-right block
    ([1, 16, 31, 46, 61, 32, 33, 34, 2, 17], "t", 500),         # a T and a stamp: the T alone
    ([1, 16, 31, 46, 61, 32, 33, 11, 12, 13], "lose", 0),       # the T but its bottom cell (34)
    ([1, 16, 31, 46, 61, 2, 17, 3, 18, 11], "stamp", 200),      # a top row (no line listed) and a stamp
    (NONE, "lose", 0),
])
def test_a_custom_pattern_is_evaluated_from_its_listed_cells(calls, tier, cents):
    assert judge(calls, [codes(CARD)], tier, CUSTOM_PLAY) == (cents, [])


def test_a_custom_pattern_of_several_sets_is_complete_when_any_one_is():
    """An L in its four corners: the top-right one (top row, right column) wins; the rest of the card
    shows nothing listed."""
    sets = [[0, 5, 10, 15, 20, 21, 22, 23, 24], [0, 1, 2, 3, 4, 9, 14, 19, 24]]
    play = copy.deepcopy(CUSTOM_PLAY)
    play["areas"][0] = CUSTOM | {"patterns": [{"name": "L", "cells": sets, "prize": "5"}]}
    top_right = [1, 16, 31, 46, 61, 62, 63, 64, 65, 11]
    assert judge(top_right, [codes(CARD)], "t", play) == (500, [])
    assert judge(top_right[:8] + [12, 11], [codes(CARD)], "lose", play) == (0, [])  # 65 uncalled
    assert judge(top_right, [codes(CARD)], "lose", play)[1] == [
        "its wins are not its tier 'lose''s (1 win(s) paying 500 cents)"]


@pytest.mark.parametrize("pattern", [
    {"name": "T", "cells": [[0, 25]], "prize": "5"},                # a cell out of range
    {"name": "T", "cells": [[0, True]], "prize": "5"},              # not an integer
    {"name": "T", "cells": [[]], "prize": "5"},                     # an empty set
    {"name": "T", "cells": [], "prize": "5"},                       # no set
    {"name": "T", "cells": [[0, 0, 1]], "prize": "5"},              # a cell twice
    {"name": "T", "cells": [[0, 1], [0, 1]], "prize": "5"},         # a set twice
    {"name": "T", "cells": [[0, 1], [1, 0]], "prize": "5"},         # a set twice, in another order
    {"name": "T", "cells": "0, 1", "prize": "5"},
    {"name": "T", "cells": [[0, 1]] * 1 + [[k] for k in range(256)], "prize": "5"},  # 257 sets
    {"name": "LINE", "cells": [[0, 1]], "prize": "5"},              # a catalogue shape's name
    {"name": "postage_STAMP", "cells": [[0, 1]], "prize": "5"},
    {"name": "", "cells": [[0, 1]], "prize": "5"},
    {"name": "-T", "cells": [[0, 1]], "prize": "5"},
    {"name": 7, "cells": [[0, 1]], "prize": "5"},
    {"name": "T", "cells": [[0, 1]], "prize": "5", "shape": "line"},  # keys of both kinds
    {"name": "T", "prize": "5"},
    {"name": "X2", "cells": [[0, 1, 5, 6], [3, 4, 8, 9], [15, 16, 20, 21], [18, 19, 23, 24]],
     "prize": "5"},                                                  # the postage stamp's sets again
    {"name": "X2", "cells": [[18, 19, 23, 24], [15, 16, 20, 21], [3, 4, 8, 9], [0, 1, 5, 6]],
     "prize": "5"},                                                  # the same, in another order
    {"shape": ["line"], "prize": "5"},
])
def test_custom_entries_it_cannot_read_stop_the_step(pattern):
    play = copy.deepcopy(CUSTOM_PLAY)
    play["areas"][0] = CUSTOM | {"patterns": [{"shape": "postage_stamp", "prize": "2"}, pattern]}
    with pytest.raises(ValueError) as caught:
        judge(NONE, [codes(CARD)], "lose", play)
    assert str(caught.value) == ("manifest play entry: area 'bg': cards, free, calls, patterns or prizes "
                                 "unreadable")


def test_names_ignore_case_when_compared():
    play = copy.deepcopy(CUSTOM_PLAY)
    play["areas"][0] = CUSTOM | {"patterns": [{"name": "t", "cells": [[0, 1]], "prize": "2"},
                                              {"name": "T", "cells": [T], "prize": "5"}]}
    with pytest.raises(ValueError):
        judge(NONE, [codes(CARD)], "lose", play)
    play["areas"][0]["patterns"][0]["name"] = "Stamp-2 o'clock"
    assert judge(NONE, [codes(CARD)], "lose", play) == (0, [])


def test_a_sets_cells_count_in_any_order():
    play = copy.deepcopy(CUSTOM_PLAY)
    play["areas"][0]["patterns"][1]["cells"] = [T[::-1]]
    assert judge([1, 16, 31, 46, 61, 32, 33, 34, 11, 12], [codes(CARD)], "t", play) == (500, [])
