"""audit's key_number_match engine on a win-all symbol, from docs/styles/key_number_match.md (sections
3 and 5) and docs/styles/play.md alone, on play entries and rows written by hand: the row pays the sum
of the area's prizes shown, each once; a sum other than its tier's is not its tier's wins; two win-all
symbols, or one beside a match or another special, are refused (rules 7 and 8); entries it cannot
read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import kn_table

# numbers 1..6 (codes 0..5), BAG (win all) = 6, 2X = 7; prizes $1, $2, $5 (codes 0, 1, 2)
AREA = {"id": "play", "style": "key_number_match", "winning": 2, "yours": 3,
        "numbers": ["1", "2", "3", "4", "5", "6"],
        "prizes": [{"code": "1", "cents": 100}, {"code": "2", "cents": 200}, {"code": "5", "cents": 500}],
        "specials": [{"code": "BAG", "how": "all", "by": 1}, {"code": "2X", "how": "multiplier", "by": 2}],
        "match_by": 1}
PLAY = {"max_wins": 2, "areas": [AREA], "tiers": [
    {"id": "lose", "wins": []},
    {"id": "bag8", "wins": [{"area": "play", "how": "all", "by": 1, "prize": "BAG", "prize_cents": 800}]},
    {"id": "bag7", "wins": [{"area": "play", "how": "all", "by": 1, "prize": "BAG", "prize_cents": 700}]},
    {"id": "1", "wins": [{"area": "play", "how": "match", "by": 1, "prize": "1", "prize_cents": 100}]}]}


def _judge(your: list[int], prize: list[int], tier: str, play: dict = PLAY) -> tuple[int, int, list[str]]:
    judged = evaluate(kn_table([0, 1], your, prize, tier), {"id": "p1"}, play)
    return int(judged.prize_cents[0]), int(judged.wins[0]), [why for _, why in judged.illegal]


def test_a_win_all_ticket_pays_exactly_the_sum_of_its_prizes_each_once():
    assert _judge([6, 2, 3], [0, 1, 2], "bag8") == (800, 1, [])  # $1 + $2 + $5, the BAG's own $1 included
    assert _judge([2, 3, 6], [2, 1, 0], "bag8") == (800, 1, [])  # wherever the symbol is
    assert _judge([6, 2, 3], [0, 0, 2], "bag7") == (700, 1, [])


def test_a_win_all_row_whose_prizes_add_up_to_another_sum_is_not_its_tiers():
    assert _judge([6, 2, 3], [0, 0, 2], "bag8") == (
        700, 1, ["its wins are not its tier 'bag8''s (1 win(s) paying 700 cents)"])
    assert _judge([6, 2, 3], [0, 1, 2], "bag7")[2] == [
        "its wins are not its tier 'bag7''s (1 win(s) paying 800 cents)"]


def test_two_win_all_symbols_are_refused_and_paid_once():
    assert _judge([6, 6, 3], [0, 1, 2], "bag8") == (800, 1, ["play: 2 win-all symbols"])


def test_a_win_all_symbol_beside_a_match_or_another_special_is_refused_and_not_paid_twice():
    # YOUR NUMBER 1 (code 0) matches WINNING NUMBER 1: the area still pays its prizes once
    assert _judge([6, 0, 3], [0, 1, 2], "bag8") == (800, 1, ["play: a win-all symbol beside 1 other win(s)"])
    assert _judge([7, 6, 0], [0, 1, 2], "bag8") == (800, 1, ["play: a win-all symbol beside 2 other win(s)"])


def test_a_win_all_symbol_on_a_losing_ticket_is_refused():
    assert _judge([6, 2, 3], [0, 0, 0], "lose") == (
        300, 1, ["its wins are not its tier 'lose''s (1 win(s) paying 300 cents)"])


def test_a_win_all_ticket_with_a_prize_code_out_of_range_sums_the_others():
    prize, wins, why = _judge([6, 2, 3], [0, 1, 9], "bag8")
    assert (prize, wins) == (300, 1)
    assert why == ["play: a prize code out of range (0, 1, 9); its wins are not its tier 'bag8''s (1 win(s) "
                   "paying 300 cents)"]


def _refused(play: dict) -> str:
    with pytest.raises(ValueError) as caught:
        evaluate(kn_table([0, 1], [2, 3, 4], [0, 0, 0]), {"id": "p1"}, play)
    return str(caught.value)


def test_entries_it_cannot_read():
    two = copy.deepcopy(PLAY)
    two["areas"][0]["specials"][1] = {"code": "BAG2", "how": "all", "by": 1}
    assert _refused(two) == ("manifest play entry: area 'play': more than one win-all symbol, or one "
                             "beside decoy_weights or 3 prizes that could reach 2^40 cents")
    big = copy.deepcopy(PLAY)
    big["areas"][0]["prizes"][2]["cents"] = 1 << 39
    assert _refused(big) == _refused(two)  # 3 x 2^39
    decoys = copy.deepcopy(PLAY)
    decoys["areas"][0]["decoy_weights"] = {"1": 1, "2": 1, "5": 1}
    assert _refused(decoys) == _refused(two)
    assert _refused(big) == ("manifest play entry: area 'play': more than one win-all symbol, or one "
                             "beside decoy_weights or 3 prizes that could reach 2^40 cents")  # 3 x 2^39
    other = copy.deepcopy(PLAY)
    other["tiers"][1]["wins"][0]["prize"] = "2X"
    assert _refused(other) == ("manifest play entry: tiers[1].wins[0]: '2X' is not a win-all symbol of its "
                               "area")
    by = copy.deepcopy(PLAY)
    by["tiers"][1]["wins"][0]["by"] = 2
    assert _refused(by) == ("manifest play entry: tiers[1].wins[0]: a win-all win is by 1, of 1 .. 2^40 - 1 "
                            "cents")


def test_two_areas_win_all_are_held_each_to_its_own_sum():
    """The same total, $15, from the sums swapped between two win-all areas is not the tier's wins."""
    more = copy.deepcopy(AREA) | {"id": "more"}
    play = copy.deepcopy(PLAY) | {"areas": [AREA, more], "tiers": [
        {"id": "lose", "wins": []},
        {"id": "both", "wins": [{"area": a, "how": "all", "by": 1, "prize": "BAG", "prize_cents": c}
                                for a, c in (("play", 800), ("more", 700))]}]}

    def row(play_prizes: list[int], more_prizes: list[int]) -> pl.DataFrame:
        cols = {"tier": ["both"]}
        for aid, prizes in (("play", play_prizes), ("more", more_prizes)):
            cols |= {f"{aid}_win_0": [0], f"{aid}_win_1": [1]}
            cols |= {f"{aid}_your_{j}": [v] for j, v in enumerate([6, 2, 3])}
            cols |= {f"{aid}_prize_{j}": [v] for j, v in enumerate(prizes)}
        return pl.DataFrame(cols).with_columns(pl.exclude("tier").cast(pl.UInt8))

    right = evaluate(row([0, 1, 2], [0, 0, 2]), {"id": "p1"}, play)
    assert (int(right.prize_cents[0]), int(right.wins[0]), right.illegal) == (1500, 2, [])
    swapped = evaluate(row([0, 0, 2], [0, 1, 2]), {"id": "p1"}, play)
    assert (int(swapped.prize_cents[0]), swapped.illegal) == (
        1500, [(0, "its wins are not its tier 'both''s (2 win(s) paying 1500 cents)")])


# prizes $1, $2, $3 (codes 0, 1, 2): $5 is shown as $1 + $1 + $3 or as $1 + $2 + $2
PINNED = copy.deepcopy(PLAY) | {"areas": [copy.deepcopy(AREA) | {"prizes": [
    {"code": "1", "cents": 100}, {"code": "2", "cents": 200}, {"code": "3", "cents": 300}]}], "tiers": [
    {"id": "lose", "wins": []},
    {"id": "bag5", "wins": [{"area": "play", "how": "all", "by": 1, "prize": "BAG", "prize_cents": 500,
                             "shows": {"1": 2, "3": 1}}]}]}


def test_a_pinned_win_all_ticket_shows_exactly_its_pinned_prizes_in_any_order():
    assert _judge([6, 2, 3], [0, 0, 2], "bag5", PINNED) == (500, 1, [])
    assert _judge([2, 6, 3], [2, 0, 0], "bag5", PINNED) == (500, 1, [])


def test_a_pinned_win_all_ticket_showing_other_prizes_of_the_same_sum_is_refused():
    assert _judge([6, 2, 3], [0, 1, 1], "bag5", PINNED) == (
        500, 1, ["play: its win-all symbol shows 1 x '1', 2 x '2', not the prizes its tier pins (2 x '1', "
                 "1 x '3')"])


def test_a_pinned_win_all_ticket_of_another_sum_is_refused_for_both():
    assert _judge([6, 2, 3], [0, 2, 2], "bag5", PINNED)[2] == [
        "its wins are not its tier 'bag5''s (1 win(s) paying 700 cents); play: its win-all symbol shows "
        "1 x '1', 2 x '3', not the prizes its tier pins (2 x '1', 1 x '3')"]


def test_pinned_prizes_it_cannot_read():
    def pin(shows: object, how: str = "all") -> str:
        play = copy.deepcopy(PINNED)
        play["tiers"][1]["wins"][0]["shows"] = shows
        if how != "all":
            play["tiers"][1]["wins"][0] |= {"how": how, "prize": "3", "prize_cents": 300}
        return _refused(play)
    assert pin({"1": 1, "3": 1}) == ("manifest play entry: tiers[1].wins[0]: shows 2 prizes of 400 cents, "
                                     "not the area's 3 of the win's 500")
    assert pin({"1": 3}) == ("manifest play entry: tiers[1].wins[0]: shows 3 prizes of 300 cents, not the "
                             "area's 3 of the win's 500")
    for bad in ({"1": 2, "9": 1}, {"1": 2, "3": True}, {"1": 4, "3": -1}, ["1", "1", "3"], {}):
        assert pin(bad) == ("manifest play entry: tiers[1].wins[0]: shows is not a count >= 1 for some of "
                            "its area's prize codes"), bad
    assert pin({"3": 1}, how="match") == ("manifest play entry: tiers[1].wins[0]: shows on a win that is "
                                          "not a win-all win")
