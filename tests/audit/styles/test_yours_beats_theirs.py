"""The auditor's yours_beats_theirs engine (audit/styles/yours_beats_theirs.py, audit/styles/play.py)
on a play entry and tables written by hand from docs/styles/yours_beats_theirs.md: higher wins, ties
as the entry says, codes out of range, and the entries it cannot read; with `multipliers` (section 9) a
winning pair pays its PRIZE times its own multiplier spot, a spot beside another multiplier than the
tier's, or out of range, is refused, and multipliers it cannot read stop the step."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

AREA = {"id": "yt", "style": "yours_beats_theirs", "pairs": 2, "numbers": ["1", "2", "3"],
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}], "ties": "lose"}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w5", "wins": [win("yt", "5", 500)]},
                  {"id": "w6", "wins": [win("yt", "1", 100), win("yt", "5", 500)]}]}


MULTS = [{"code": "2X", "by": 2}, {"code": "5X", "by": 5}]
MPLAY = {"max_wins": 2, "areas": [AREA | {"multipliers": MULTS}],
         "tiers": [{"id": "lose", "wins": []}, {"id": "w25", "wins": [win("yt", "5", 500, by=5)]},
                   {"id": "w7", "wins": [win("yt", "1", 100, by=2), win("yt", "5", 500)]}]}


def judge(yours: list[int], theirs: list[int], boxes: list[int], tier: str, play: dict = PLAY,
          mults: list[int] | None = None):
    row: dict[str, list[object]] = {"tier": [tier]}
    for part, values in (("yours", yours), ("theirs", theirs), ("prize", boxes), ("mult", mults or [])):
        row |= {f"yt_{part}_{p}": [v] for p, v in enumerate(values)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("yours", "theirs", "boxes", "tier", "cents"), [
    ([0, 1], [1, 2], [1, 1], "lose", 0), ([2, 1], [1, 1], [1, 0], "w5", 500),
    ([2, 1], [0, 0], [0, 1], "w6", 600)])
def test_a_higher_symbol_wins_its_prize_and_a_tie_loses(yours, theirs, boxes, tier, cents):
    assert judge(yours, theirs, boxes, tier) == (cents, [])


def test_ties_win_where_the_entry_says_so():
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | {"ties": "win"}
    assert judge([1, 0], [1, 2], [1, 1], "w5", play) == (500, [])


def test_a_code_out_of_range():
    assert judge([0, 7], [1, 2], [1, 1], "lose") == (500, [  # compared as stored: 7 beats 2
        "yt: a code out of range in yt_yours_1; its wins are not its tier 'lose''s (1 win(s) paying 500 "
        "cents)"])


@pytest.mark.parametrize("change", [{"pairs": 0}, {"pairs": 33}, {"numbers": ["1"]}, {"numbers": ["1", "1"]},
                                    {"ties": "split"}, {"prizes": []}, {"prizes": [{"code": "1"}]}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge([0, 1], [1, 2], [1, 1], "lose", play)
    assert str(caught.value).startswith("manifest play entry: area 'yt': ")


def test_a_winning_pair_pays_its_prize_times_its_own_multiplier():
    play = copy.deepcopy(MPLAY)
    play["tiers"][2]["wins"][1] = win("yt", "5", 500, by=2)  # $1 (2X) + $5 (2X)
    assert judge([2, 1], [1, 2], [1, 0], "w25", MPLAY, [1, 0]) == (2500, [])
    assert judge([0, 1], [1, 2], [1, 1], "lose", MPLAY, [1, 1]) == (0, [])  # a losing pair's 5X pays nothing
    assert judge([2, 1], [0, 0], [0, 1], "w7", play, [0, 0]) == (1200, [])


def test_a_winning_pair_beside_another_multiplier_than_its_tiers_is_refused():
    assert judge([2, 1], [1, 2], [1, 0], "w25", MPLAY, [0, 1]) == (1000, [
        "its wins are not its tier 'w25''s (1 win(s) paying 1000 cents)"])


def test_a_multiplier_code_out_of_range_is_refused():
    assert judge([2, 1], [1, 2], [1, 0], "w25", MPLAY, [1, 2]) == (2500, [
        "yt: a code out of range in yt_mult_1"])


@pytest.mark.parametrize("mults", [[], [MULTS[0]], [MULTS[0], {"code": "X", "by": 2}],
                                   [MULTS[0], {"code": "2X", "by": 3}], [MULTS[0], {"code": "1X", "by": 1}],
                                   [MULTS[0], {"code": "T", "by": "3"}], "2X"])
def test_multipliers_it_cannot_read_stop_the_step(mults):
    play = copy.deepcopy(MPLAY)
    play["areas"][0] = AREA | {"multipliers": mults}
    with pytest.raises(ValueError, match="^manifest play entry: area 'yt': multipliers unreadable$"):
        judge([0, 1], [1, 2], [1, 1], "lose", play, [0, 0])


PRIZE_UNREADABLE = ("manifest play entry: area 'yt': prizes is not a non-empty list of {code, cents} "
                    "(cents 0..2^40 - 1)")


@pytest.mark.parametrize("prize", [{"cents": 900}, {"code": 9, "cents": 900}, {"code": "9", "cents": -1},
                                   {"code": "9", "cents": 1 << 40}, {"code": "9", "cents": 9.0},
                                   {"code": "9", "cents": True}, {"code": "9", "cents": "900"}, "9"])
def test_a_prize_no_row_shows_that_is_not_code_and_cents_in_range_stops_the_step(prize):
    play = copy.deepcopy(PLAY)
    play["areas"][0]["prizes"].append(prize)
    with pytest.raises(ValueError) as caught:
        judge([2, 1], [1, 1], [1, 0], "w5", play)
    assert str(caught.value) == PRIZE_UNREADABLE


@pytest.mark.parametrize(("key", "code"), [("numbers", 1), ("multipliers", {"by": 2}),
                                           ("multipliers", {"code": 2, "by": 2})])
def test_a_listed_code_that_is_not_a_string_stops_the_step(key, code):
    play = copy.deepcopy(MPLAY)
    play["areas"][0][key][0] = code
    with pytest.raises(ValueError) as caught:
        judge([2, 1], [1, 1], [1, 0], "w25", play, mults=[0, 1])
    assert str(caught.value) == f"manifest play entry: area 'yt': {key} lists a code that is not a string"
