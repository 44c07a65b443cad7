"""The auditor's blackjack engine on a DEALER'S hand of cards and a prize by the number of HANDS won
(docs/styles/blackjack.md, sections 9 and 10), on entries and rows written by hand from the contract:
the dealer's cards are added, the ticket's one win is the legend's line for the HANDS won (the last
line: that many or more), every row that shows another is illegal, and the entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

# HANDS of one printed total 18, 20, 21, 23; the DEALER's two cards 9 or 10, added (18 .. 20)
AREA = {"id": "bj", "style": "blackjack", "hands": 3, "hand_cards": 1, "numbers": ["18", "20", "21", "23"],
        "points": [18, 20, 21, 23], "dealer_totals": ["9", "10"], "dealer_points": [9, 10], "dealer_cards": 2,
        "prizes": [{"code": "1", "cents": 100}, {"code": "2", "cents": 200}], "pays": "count",
        "legend": [{"count": 1, "prize": "1"}, {"count": 2, "prize": "2"}]}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w1", "wins": [win("bj", "1", 100)]},
                  {"id": "w2", "wins": [win("bj", "2", 200)]}]}


def judge(dealer: list[int], cards: list[int], tier: str, play: dict = PLAY):
    row: dict[str, list[object]] = {"tier": [tier]}
    row |= {f"bj_dealer_{j}": [v] for j, v in enumerate(dealer)}
    row |= {f"bj_card_{i}": [v] for i, v in enumerate(cards)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("dealer", "cards", "tier", "cents"), [
    ([0, 0], [1, 2, 0], "w2", 200),   # dealer 18: 20 and 21 win, 18 ties: two HANDS, the $2 line
    ([0, 1], [1, 2, 3], "w2", 200),   # dealer 19: 20 and 21 win, 23 is over 21
    ([1, 1], [2, 2, 2], "w2", 200),   # dealer 20: three 21s: three HANDS, the last line's "or more"
    ([1, 1], [2, 1, 0], "w1", 100),   # dealer 20: 21 wins, 20 ties: one HAND
    ([1, 1], [1, 3, 0], "lose", 0),   # dealer 20 (10 + 10): nothing beats it but 21
])
def test_the_ticket_wins_the_legend_line_for_its_hands_won_against_the_dealers_cards_added(
        dealer, cards, tier, cents):
    assert judge(dealer, cards, tier) == (cents, [])


@pytest.mark.parametrize(("dealer", "cards", "tier", "shown"), [
    ([1, 1], [1, 1, 1], "w2", "0 win(s) paying 0 cents"),  # 10 + 10 read as one 10 would let the 20s win
    ([0, 0], [1, 3, 3], "w2", "1 win(s) paying 100 cents"),  # one HAND won pays the $1 line, not the $2
    ([0, 0], [1, 2, 0], "w1", "1 win(s) paying 200 cents"),  # two HANDS won pay the $2 line
    ([0, 0], [1, 0, 0], "lose", "1 win(s) paying 100 cents"),  # a losing ticket winning one HAND
])
def test_a_row_whose_hands_won_pay_another_line_is_illegal(dealer, cards, tier, shown):
    assert judge(dealer, cards, tier)[1] == [f"its wins are not its tier {tier!r}'s ({shown})"]


def test_a_dealers_card_out_of_range_makes_the_row_illegal_and_every_hand_lose():
    assert judge([2, 0], [2, 2, 2], "lose") == (0, ["bj: a code out of range in bj_dealer_0"])


@pytest.mark.parametrize("change", [
    {"dealer_cards": 0}, {"dealer_cards": 4}, {"dealer_cards": "2"}, {"pays": "each"},
    {"legend": []}, {"legend": [{"count": 1, "prize": "1"}, {"count": 3, "prize": "2"}]},
    {"legend": [{"count": 1, "prize": "1"}, {"count": 2, "prize": "1"}]},
    {"legend": [{"count": 1, "prize": "1"}, {"count": 2, "prize": "9"}]},
    {"legend": [{"count": 1, "prize": "1"}, {"count": 4, "prize": "2"}]},
    {"legend": [{"count": 1, "prize": "1", "by": 2}]}, {"pays": "hand"}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge([0, 0], [1, 2, 0], "w2", play)
    assert str(caught.value) == ("manifest play entry: area 'bj': dealer_cards, pays or legend unreadable")
