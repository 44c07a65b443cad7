"""audit's engines for printed styles (audit/styles/play, key_number_match, match_n, bonus_reveal,
audit/styles/interface): the refusals and edge cases mutation testing found untested (bench/mutation.py
rules). Play entries are written by hand, as docs/styles/play.md gives them: no generator involved."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.styles import bonus_reveal, key_number_match, match_n
from audit.styles.interface import Reasons
from audit.styles.play import evaluate
from tests.support.play_entries import KN_AREA, KN_PLAY, edited, kn_table, refusal


def test_the_entry_as_written_evaluates():  # the baseline every refusal below changes one thing of
    result = evaluate(kn_table([0, 1], [1, 3, 4], [1, 1, 1], tier="1"), {"id": "p1"}, KN_PLAY)
    assert (result.prize_cents.tolist(), result.wins.tolist(), result.illegal) == ([100], [1], [])


def test_a_play_entry_without_max_wins():
    assert refusal(edited(lambda p: p.pop("max_wins"))) == "manifest play entry: play.max_wins is missing"


def test_a_multiplier_of_zero_is_out_of_range():
    play = edited(lambda p: p["areas"][0]["specials"][1].update(by=0))
    assert refusal(play, kn_table([0, 1], [7, 3, 4], [1, 1, 1])) == (
        "manifest play entry: area 'play': a multiplier or amount out of range")


def test_a_multiplier_of_4096_is_out_of_range():
    play = edited(lambda p: p["areas"][0]["specials"][1].update(by=4096))
    assert refusal(play, kn_table([0, 1], [7, 3, 4], [1, 1, 1])) == (
        "manifest play entry: area 'play': a multiplier or amount out of range")


def test_a_prize_of_2_to_the_40_cents_is_out_of_range_and_one_cent_less_is_not():
    play = edited(lambda p: p["areas"][0]["prizes"][2].update(cents=1 << 40))
    assert refusal(play, kn_table([0, 1], [2, 3, 4], [1, 1, 2])) == (
        "manifest play entry: area 'play': a multiplier or amount out of range")
    play["areas"][0]["prizes"][2]["cents"] = (1 << 40) - 1
    assert evaluate(kn_table([0, 1], [2, 3, 4], [1, 1, 2]), {"id": "p1"}, play).illegal == []


def test_a_win_without_how():
    play = edited(lambda p: p["tiers"][1]["wins"][0].pop("how"))
    assert refusal(play) == "manifest play entry: tiers[1].wins[0].how is missing"


@pytest.mark.parametrize("key, value", [("area", "elsewhere"), ("how", "guess")])
def test_a_win_of_an_unknown_area_or_how(key, value):
    play = edited(lambda p: p["tiers"][1]["wins"][0].update({key: value}))
    assert refusal(play) == "manifest play entry: tiers[1].wins[0]: unknown area or how"


def test_a_win_on_a_prize_the_area_does_not_have():
    play = edited(lambda p: p["tiers"][1]["wins"][0].update(prize_cents=999))
    assert refusal(play) == ("manifest play entry: tiers[1].wins[0]: prize '1' of 999 cents is not one of "
                             "its area's prizes")


def test_key_number_match_refuses_a_list_that_is_not_one():
    play = edited(lambda p: p["areas"][0].update(numbers="123456"))
    assert refusal(play) == "manifest play entry: area 'play': numbers is not a list"


@pytest.mark.parametrize("value", [0, True, "2"])
def test_key_number_match_refuses_a_count_that_is_not_a_whole_number(value):
    play = edited(lambda p: p["areas"][0].update(winning=value))
    assert refusal(play) == "manifest play entry: area 'play': winning is not a whole number >= 1"


def test_key_number_match_refuses_distinct_numbers_that_is_not_a_boolean():
    play = edited(lambda p: p["areas"][0].update(distinct_numbers="yes"))
    assert refusal(play) == "manifest play entry: area 'play': distinct_numbers is not true or false"


def test_distinct_numbers_lets_a_special_symbol_show_twice():
    """Section 8.1 speaks of YOUR NUMBERS: two automatic-win symbols are not a repeated number (and
    two equal numbers that match nothing are)."""
    area = KN_AREA | {"distinct_numbers": True}
    reasons = Reasons()
    key_number_match.evaluate(kn_table([0, 1], [6, 6, 2], [1, 1, 1]), area, reasons)
    assert reasons.illegal() == []
    key_number_match.evaluate(kn_table([0, 1], [2, 2, 3], [1, 1, 1]), area, reasons)
    assert reasons.illegal() == [(0, "play: a YOUR NUMBER that matches nothing shows twice")]


def test_a_null_code_is_shown_as_null():
    result = evaluate(kn_table([0, 1], [None, 3, 4], [1, 1, 1]), {"id": "p1"}, KN_PLAY)
    assert result.illegal == [(0, "play: a your-number code out of range (null, 3, 4)")]


MN_AREA = {"id": "play", "style": "match_n", "spots": 6, "match": 3,
           "prizes": [{"code": "1", "cents": 100}, {"code": "2", "cents": 200}],
           "multipliers": [{"code": "2X", "by": 2}]}


@pytest.mark.parametrize("change", [{"match": 1}, {"match": 7}, {"spots": "6"}, {"prizes": []},
                                    {"multipliers": None}])
def test_match_n_refuses_an_unreadable_area(change):
    with pytest.raises(ValueError) as caught:
        match_n.evaluate(pl.DataFrame(), MN_AREA | change, Reasons())
    assert str(caught.value) == ("manifest play entry: area 'play': spots, match, prizes or multipliers "
                                 "unreadable")


@pytest.mark.parametrize("by", [1, 0, 4096, "2"])
def test_match_n_refuses_a_multiplier_outside_2_to_4095(by):
    """docs/styles/match_n.md: each multiplier symbol has `by = k`, 2 <= k < 4096; refused when read,
    whether or not a row shows the symbol."""
    with pytest.raises(ValueError) as caught:
        match_n.evaluate(pl.DataFrame(), MN_AREA | {"multipliers": [{"code": "kX", "by": by}]}, Reasons())
    assert str(caught.value) == ("manifest play entry: area 'play': spots, match, prizes or multipliers "
                                 "unreadable")


BR_AREA = {"id": "bonus", "style": "bonus_reveal", "spots": 3, "most_alike": 2,
           "prizes": [{"code": "10", "cents": 1000}], "pictures": ["bell", "star"]}


@pytest.mark.parametrize("change", [{"most_alike": 4}, {"most_alike": 0}, {"spots": True}, {"spots": 0},
                                    {"prizes": []}, {"pictures": []}, {"most_alike": True}])
def test_bonus_reveal_refuses_an_unreadable_area(change):
    with pytest.raises(ValueError) as caught:
        bonus_reveal.evaluate(pl.DataFrame(), BR_AREA | change, Reasons())
    assert str(caught.value) == ("manifest play entry: area 'bonus': spots, most_alike, prizes or pictures "
                                 "unreadable")


def test_bonus_reveal_reads_its_area_as_written():  # the baseline of the refusals above
    table = pl.DataFrame({f"bonus_spot_{j}": [v] for j, v in enumerate([0, 2, 1])}).cast(pl.UInt8)
    reasons = Reasons()
    slots = bonus_reveal.evaluate(table, BR_AREA, reasons)
    assert [bool(s.won[0]) for s in slots] == [False, True, False] and reasons.illegal() == []
    assert np.array_equal(slots[1].cents, [1000])


def test_a_play_entry_without_tiers():
    assert refusal(edited(lambda p: p.pop("tiers"))) == "manifest play entry: play.tiers is missing"
