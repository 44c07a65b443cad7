"""The auditor's add_up engine (audit/styles/add_up.py, audit/styles/play.py) on a play entry and tables
written by hand from docs/styles/add_up.md: totals at or above the target (or exactly on it) win the
game's PRIZE, codes out of range, and the entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

# numbers "2", "5", "9" (codes 0, 1, 2); target 10
AREA = {"id": "au", "style": "add_up", "games": 2, "spots": 2, "numbers": ["2", "5", "9"], "target": 10,
        "reach": "at_least", "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}]}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w5", "wins": [win("au", "5", 500)]},
                  {"id": "w6", "wins": [win("au", "1", 100), win("au", "5", 500)]}]}


def judge(spots: list[int], boxes: list[int], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row: dict[str, list[object]] = {"tier": [tier]}
    row |= {f"au_spot_{j}": [v] for j, v in enumerate(spots)}
    row |= {f"au_prize_{g}": [v] for g, v in enumerate(boxes)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("spots", "boxes", "tier", "cents"), [
    ([0, 1, 1, 0], [1, 1], "lose", 0), ([1, 1, 0, 2], [0, 1], "w6", 600),
    ([2, 2, 0, 0], [1, 0], "w5", 500), ([1, 2, 2, 1], [0, 1], "w6", 600)])
def test_a_total_at_or_above_the_target_wins_its_prize(spots, boxes, tier, cents):
    assert judge(spots, boxes, tier) == (cents, [])


def test_exactly_wins_only_on_the_target():
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | {"reach": "exactly"}
    assert judge([1, 1, 2, 2], [1, 0], "w5", play) == (500, [])  # 10 wins, 18 does not


def test_a_code_out_of_range():
    assert judge([0, 1, 1, 0], [1, 4], "lose") == (0, ["au: a code out of range in au_prize_1"])


@pytest.mark.parametrize(("spots", "boxes", "column"), [
    ([2, 2, 0, 0], [2, 0], "au_prize_0"), ([3, 2, 0, 0], [1, 0], "au_spot_0"),
    ([2, 255, 0, 0], [1, 0], "au_spot_1")])
def test_a_game_showing_a_code_out_of_range_wins_nothing(spots, boxes, column):
    """A PRIZE code 2 is not read as the last prize, nor a number code 3 or 255 as the last number (9):
    the game 9 + 9 would win $5; shown out of range it wins nothing, so the row pays nothing."""
    assert judge(spots, boxes, "w5") == (0, [f"au: a code out of range in {column}; its wins are not its "
                                             "tier 'w5''s (0 win(s) paying 0 cents)"])


@pytest.mark.parametrize("change", [{"games": 0}, {"spots": 17}, {"numbers": ["2", "two"]},
                                    {"numbers": ["2", "2"]}, {"target": -1}, {"reach": "near"},
                                    {"prizes": []}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge([0, 1, 1, 0], [1, 1], "lose", play)
    assert str(caught.value).startswith("manifest play entry: area 'au': ")
