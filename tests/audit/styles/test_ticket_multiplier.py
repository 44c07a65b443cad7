"""The auditor's ticket_multiplier engine (audit/styles/ticket_multiplier.py) and how audit/styles/play.py
scales a ticket's other wins by it, on a play entry and tables written by hand from
docs/styles/ticket_multiplier.md and docs/styles/play.md: a multiplied ticket's prize, a multiplier on a
loser or on a winner whose tier is not multiplied, every rule of section 6 with its exact reason, and
the entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

# a bonus_reveal area "b" (codes 0..2 pictures, 3 = $1, 4 = $5) and the multiplier box "x" (codes 0..1
# pictures, 2 = 2X, 3 = 5X)
REVEAL = {"id": "b", "style": "bonus_reveal", "spots": 2, "prizes": [{"code": "1", "cents": 100},
                                                                      {"code": "5", "cents": 500}],
          "pictures": ["A", "B", "C"], "most_alike": 2}
BOX = {"id": "x", "style": "ticket_multiplier", "spots": 2, "pictures": ["P", "Q"],
       "multipliers": [{"code": "2X", "by": 2}, {"code": "5X", "by": 5}]}
TWICE = win("x", "2X", 0, how="ticket", by=2)
FIVE = win("x", "5X", 0, how="ticket", by=5)
PLAY = {"max_wins": 2, "areas": [REVEAL, BOX],
        "tiers": [{"id": "lose", "wins": []}, {"id": "r1", "wins": [win("b", "1", 100, "reveal")]},
                  {"id": "r1x2", "wins": [win("b", "1", 100, "reveal"), TWICE]},
                  {"id": "r6x5", "wins": [win("b", "1", 100, "reveal"), win("b", "5", 500, "reveal"), FIVE]}]}


def judge(b: list[int], x: list[int], tier: str, play: dict = PLAY) -> tuple[int, int, list[str]]:
    row = {"tier": [tier]} | {f"b_spot_{j}": [v] for j, v in enumerate(b)} | \
        {f"x_spot_{j}": [v] for j, v in enumerate(x)}
    table = pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8))
    result = evaluate(table, {"id": "p1"}, play)
    return int(result.prize_cents[0]), int(result.wins[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("b", "x", "tier", "paid"), [
    ([3, 0], [0, 1], "r1", (100, 1)),  # no multiplier: the sum
    ([3, 0], [1, 2], "r1x2", (200, 1)),  # 2X: twice the other wins; the multiplier is not a win
    ([4, 3], [3, 0], "r6x5", (3000, 2)),  # 5X on $1 + $5, at max_wins 2
    ([0, 1], [1, 1], "lose", (0, 0))])
def test_a_multiplier_pays_k_times_the_other_wins(b, x, tier, paid):
    assert judge(b, x, tier) == (*paid, [])


def test_a_multiplier_on_a_loser_is_illegal():
    assert judge([0, 1], [2, 0], "lose") == (0, 0, [
        "a ticket-wide multiplier x2 on a ticket with no other win; its wins are not its tier 'lose''s "
        "(0 win(s) paying 0 cents)"])


ON_LOSERS = {**PLAY, "areas": [REVEAL, BOX | {"multipliers_on_losers": True}]}


@pytest.mark.parametrize(("b", "x", "tier", "judged"), [
    ([0, 1], [2, 0], "lose", (0, 0, [])),  # a 2X on a loser: no win, pays nothing
    ([0, 1], [1, 3], "lose", (0, 0, [])),  # a 5X
    ([0, 1], [2, 3], "lose", (0, 0, ["x: 2 multiplier symbols (at most one)"])),  # rule 2 still holds
    ([3, 0], [0, 2], "r1", (200, 1, ["its wins are not its tier 'r1''s (1 win(s) paying 200 cents)"])),
    ([0, 1], [2, 0], "r1x2", (0, 0, ["its wins are not its tier 'r1x2''s (0 win(s) paying 0 cents)"])),
])
def test_with_multipliers_on_losers_a_multiplier_on_a_loser_is_no_win(b, x, tier, judged):
    """docs/styles/ticket_multiplier.md sections 1 and 5: with the entry's `multipliers_on_losers` a row
    whose multiplier is its only win wins nothing (so only a tier that wins nothing may show it so); a
    multiplier beside a win of a tier not multiplied is still refused."""
    assert judge(b, x, tier, ON_LOSERS) == judged
    assert judge(b, x, tier, {**PLAY, "areas": [REVEAL, BOX | {"multipliers_on_losers": False}]}) == \
        judge(b, x, tier)  # false is the field absent


def test_a_multiplier_on_a_winner_whose_tier_is_not_multiplied_is_illegal():
    assert judge([3, 0], [0, 2], "r1") == (200, 1, [
        "its wins are not its tier 'r1''s (1 win(s) paying 200 cents)"])


@pytest.mark.parametrize(("x", "paid"), [([0, 0], 100), ([3, 1], 500)])
def test_a_multiplied_tier_without_its_multiplier_is_illegal(x, paid):
    assert judge([3, 0], x, "r1x2") == (paid, 1, [
        f"its wins are not its tier 'r1x2''s (1 win(s) paying {paid} cents)"])


def test_two_multipliers_are_illegal():
    assert judge([3, 0], [2, 3], "r1x2") == (200, 1, ["x: 2 multiplier symbols (at most one)"])


def test_a_code_out_of_range():
    assert judge([3, 0], [0, 4], "r1") == (100, 1, ["x: a spot code out of range (0, 4)"])


def test_the_multiplier_is_not_counted_against_max_wins():
    play = copy.deepcopy(PLAY) | {"max_wins": 1}
    assert judge([4, 3], [3, 0], "r6x5", play) == (3000, 2, ["2 wins, at most 1"])


@pytest.mark.parametrize("change", [{"spots": 0}, {"spots": 33}, {"pictures": []}, {"pictures": ["P", "P"]},
                                    {"multipliers": []}, {"multipliers": [{"code": "2X", "by": 1}]},
                                    {"multipliers": [{"code": "2X", "by": 4096}]},
                                    {"multipliers": [{"code": "2X", "by": 2}, {"code": "2X", "by": 3}]},
                                    {"multipliers": [{"code": "2X"}]}, {"multipliers": None},
                                    {"multipliers_on_losers": 1}, {"multipliers_on_losers": "true"},
                                    {"multipliers_on_losers": None}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][1] = BOX | change
    with pytest.raises(ValueError) as caught:
        judge([3, 0], [0, 1], "r1", play)
    assert str(caught.value) == ("manifest play entry: area 'x': spots, pictures, multipliers or "
                                 "multipliers_on_losers unreadable")


def test_two_multiplier_areas_and_a_multiplier_paid_in_cents_are_unreadable():
    play = copy.deepcopy(PLAY)
    play["areas"].append(BOX | {"id": "y"})
    with pytest.raises(ValueError, match="^manifest play entry: more than one ticket_multiplier area$"):
        judge([3, 0], [0, 1], "r1", play)
    play = copy.deepcopy(PLAY)
    play["tiers"][2]["wins"][1]["prize_cents"] = 100
    with pytest.raises(ValueError, match=r"tiers\[2\]\.wins\[1\]: prize '2X' of 100 cents is not one"):
        judge([3, 0], [0, 1], "r1", play)


def test_a_ticket_win_of_an_area_without_multipliers_is_unreadable():
    play = copy.deepcopy(PLAY)
    play["tiers"][2]["wins"][1]["area"] = "b"
    with pytest.raises(ValueError, match=r"^manifest play entry: tiers\[2\]\.wins\[1\]: its area lists "
                                         r"no such prizes$"):
        judge([3, 0], [0, 1], "r1", play)


def _big(cents_b: int) -> tuple[dict, pl.DataFrame]:
    """Two match_n areas each paying 2048 x its P (2^39 cents in area a, `cents_b` in b) under a
    ticket-wide 2048X: (2^50 + 2048 x cents_b) x 2048 cents."""
    def area(aid: str, cents: int) -> dict:
        return {"id": aid, "style": "match_n", "spots": 3, "match": 3,
                "prizes": [{"code": "P", "cents": cents}], "multipliers": [{"code": "M", "by": 2048}]}
    box = BOX | {"multipliers": [{"code": "T", "by": 2048}]}
    wins = [win("a", "P", 1 << 39, "multiplier", 2048), win("b", "P", cents_b, "multiplier", 2048),
            win("x", "T", 0, how="ticket", by=2048)]
    play = {"max_wins": 2, "areas": [area("a", 1 << 39), area("b", cents_b), box],
            "tiers": [{"id": "lose", "wins": []}, {"id": "big", "wins": wins}]}
    row = {"tier": ["big"]} | {f"{a}_spot_{j}": [v] for a in "ab" for j, v in enumerate([0, 0, 1])} | \
        {"x_spot_0": [1], "x_spot_1": [2]}
    return play, pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8))


def test_a_multiplied_amount_of_2_to_the_62_cents_is_unreadable_and_less_is_not():
    """docs/styles/play.md: an entry is unreadable when a multiplied row's amount would reach 2^62 cents
    (docs/validation.md: a prize is below 2^62, so the FREE flag never overlaps an amount)."""
    play, table = _big(1 << 39)  # (2^50 + 2^50) x 2048 = 2^62 exactly
    with pytest.raises(ValueError, match="^manifest play entry: a multiplied prize out of range$"):
        evaluate(table, {"id": "p1"}, play)
    play, table = _big((1 << 39) - 1)
    result = evaluate(table, {"id": "p1"}, play)
    assert (result.prize_cents.tolist(), result.illegal) == ([(1 << 62) - (1 << 22)], [])
