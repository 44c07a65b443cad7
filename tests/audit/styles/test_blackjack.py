"""The auditor's blackjack engine (audit/styles/blackjack.py, audit/styles/play.py) on a play entry and
tables written by hand from docs/styles/blackjack.md: a HAND of 21 or less above the DEALER'S TOTAL wins,
over 21 and ties lose, a BUST (0 points) loses to every HAND of 21 or less, codes out of range, and the
entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

# cards 5, 10, A (A = 11); DEALER'S TOTALS 17, 20, BUST
AREA = {"id": "bj", "style": "blackjack", "hands": 2, "hand_cards": 2, "numbers": ["5", "10", "A"],
        "points": [5, 10, 11], "dealer_totals": ["17", "20", "BUST"], "dealer_points": [17, 20, 0],
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}]}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w5", "wins": [win("bj", "5", 500)]},
                  {"id": "w6", "wins": [win("bj", "1", 100), win("bj", "5", 500)]}]}


def judge(dealer: int, cards: list[int], boxes: list[int], tier: str, play: dict = PLAY):
    row: dict[str, list[object]] = {"tier": [tier], "bj_dealer_0": [dealer]}
    row |= {f"bj_card_{i}": [v] for i, v in enumerate(cards)}
    row |= {f"bj_prize_{h}": [v] for h, v in enumerate(boxes)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("dealer", "cards", "boxes", "tier", "cents"), [
    (0, [1, 0, 1, 2], [1, 1], "w5", 500),   # 15 loses to 17; 21 wins its $5
    (1, [1, 1, 0, 0], [0, 1], "lose", 0),   # 20 ties 20: the dealer wins ties; 10 loses
    (1, [2, 2, 1, 2], [0, 1], "w5", 500),   # A + A = 22 is over 21; 21 beats 20
    (2, [0, 0, 2, 1], [0, 1], "w6", 600),   # BUST: 10 and 21 both win
    (2, [2, 2, 2, 2], [0, 1], "lose", 0),   # BUST, but both hands are A + A = 22: over 21 loses
])
def test_a_hand_of_21_or_less_above_the_dealers_total_wins_its_prize(dealer, cards, boxes, tier, cents):
    assert judge(dealer, cards, boxes, tier) == (cents, [])


def test_a_hand_with_one_printed_total_over_21_never_wins():
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | {"hand_cards": 1, "numbers": ["18", "21", "26"], "points": [18, 21, 26]}
    row = {"tier": ["w5"], "bj_dealer_0": [2], "bj_card_0": [2], "bj_card_1": [1], "bj_prize_0": [0],
           "bj_prize_1": [1]}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    assert (int(result.prize_cents[0]), result.illegal) == (500, [])


def test_a_code_out_of_range_makes_the_row_illegal_and_its_hand_lose():
    assert judge(0, [1, 7, 1, 2], [1, 1], "w5") == (500, [
        "bj: a code out of range in bj_card_1"])


def test_a_dealers_total_out_of_range_makes_every_hand_lose():
    assert judge(3, [1, 2, 1, 2], [1, 1], "lose") == (0, ["bj: a code out of range in bj_dealer_0"])


def test_a_prize_out_of_range_reads_as_the_last_prize():
    assert judge(0, [1, 2, 0, 0], [9, 0], "w5") == (500, ["bj: a code out of range in bj_prize_0"])


@pytest.mark.parametrize("change", [
    {"hands": 0}, {"hands": 17}, {"hand_cards": 0}, {"hand_cards": 4}, {"numbers": ["5"]},
    {"numbers": ["5", "5", "A"]}, {"points": [5, 10]}, {"points": [5, 10, 100]}, {"points": [5, 10, True]},
    {"dealer_totals": []}, {"dealer_points": [17, 20, 22]}, {"dealer_points": [17, 20]},
    {"prizes": []}, {"prizes": [{"code": "1"}]}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge(0, [1, 0, 1, 2], [1, 1], "w5", play)
    assert str(caught.value).startswith("manifest play entry: area 'bj': ")


PRIZE_UNREADABLE = ("manifest play entry: area 'bj': prizes is not a non-empty list of {code, cents} "
                    "(cents 0..2^40 - 1)")


@pytest.mark.parametrize("prize", [{"cents": 900}, {"code": 9, "cents": 900}, {"code": "9", "cents": -1},
                                   {"code": "9", "cents": 1 << 40}, {"code": "9", "cents": 9.0},
                                   {"code": "9", "cents": True}, {"code": "9", "cents": "900"}, "9"])
def test_a_prize_no_row_shows_that_is_not_code_and_cents_in_range_stops_the_step(prize):
    play = copy.deepcopy(PLAY)
    play["areas"][0]["prizes"].append(prize)
    with pytest.raises(ValueError) as caught:
        judge(0, [1, 0, 1, 2], [1, 1], "w5", play)
    assert str(caught.value) == PRIZE_UNREADABLE


@pytest.mark.parametrize(("key", "code"), [("numbers", 5), ("numbers", None), ("dealer_totals", 17),
                                           ("dealer_totals", ["17"])])
def test_a_listed_code_that_is_not_a_string_stops_the_step(key, code):
    play = copy.deepcopy(PLAY)
    play["areas"][0][key][0] = code
    with pytest.raises(ValueError) as caught:
        judge(0, [1, 0, 1, 2], [1, 1], "w5", play)
    assert str(caught.value) == f"manifest play entry: area 'bj': {key} lists a code that is not a string"
