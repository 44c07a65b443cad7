"""The auditor's prize_box engine (audit/styles/prize_box.py, audit/styles/play.py) on a play entry and
tables written by hand from docs/styles/prize_box.md: what a match wins, every rule of section 5 with
its exact reason, and the entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

AREA = {"id": "pb", "style": "prize_box", "games": 2, "spots": 3, "match": 2,
        "pictures": ["BELL", "STAR", "HEART"],
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}]}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w5", "wins": [win("pb", "5", 500)]},
                  {"id": "w6", "wins": [win("pb", "1", 100), win("pb", "5", 500)]}]}


def judge(spots: list[int], boxes: list[int], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row = {"tier": [tier]} | {f"pb_spot_{j}": [v] for j, v in enumerate(spots)} | \
        {f"pb_prize_{g}": [v] for g, v in enumerate(boxes)}
    table = pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8))
    result = evaluate(table, {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("spots", "boxes", "tier", "cents"), [
    ([0, 1, 2, 2, 1, 0], [1, 1], "lose", 0), ([0, 1, 0, 2, 1, 0], [1, 0], "w5", 500),
    ([0, 1, 0, 2, 2, 0], [0, 1], "w6", 600), ([1, 1, 2, 0, 1, 2], [1, 0], "w5", 500)])
def test_a_match_wins_the_prize_its_box_shows(spots, boxes, tier, cents):
    assert judge(spots, boxes, tier) == (cents, [])


def test_three_alike_in_a_game():
    assert judge([1, 1, 1, 0, 1, 2], [0, 0], "lose") == (0, ["pb: game 1: more than 2 like pictures"])


def test_two_matches_in_a_game():
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | {"spots": 4}
    assert judge([0, 0, 1, 1, 0, 1, 2, 2], [1, 1], "lose", play) == (  # each game wins its box once
        1000, ["pb: game 1: two matches; its wins are not its tier 'lose''s (2 win(s) paying 1000 cents)"])


def test_a_code_out_of_range():
    assert judge([0, 1, 2, 2, 1, 0], [1, 9], "lose") == (0, ["pb: a code out of range in pb_prize_1"])


@pytest.mark.parametrize("change", [{"games": 0}, {"games": 33}, {"spots": 1}, {"match": 4}, {"match": 1},
                                    {"pictures": []}, {"pictures": ["A", "A"]}, {"prizes": []},
                                    {"prizes": [{"code": "1", "cents": 1.5}]}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge([0, 1, 2, 2, 1, 0], [1, 1], "lose", play)
    assert str(caught.value).startswith("manifest play entry: area 'pb': ")
