"""The auditor's poker_hand engine (audit/styles/poker_hand.py, audit/styles/play.py) on a play entry and
tables written by hand from docs/styles/poker_hand.md: every known hand of tests/support/poker_ranks.py
ranked as section 5 says, the chart's prize for its RANK paid, rule 1's exact reasons, an illegal row's
JOKER shown twice, and the entries it cannot read."""

from __future__ import annotations

import copy

import numpy as np
import polars as pl
import pytest

from audit.styles.play import evaluate
from audit.styles.poker_hand import RANKS, hand_rank
from tests.support.play_entries import win
from tests.support.poker_ranks import KNOWN, hand

CHART = ["five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better"]
AREA = {"id": "ph", "style": "poker_hand", "deck": "standard-52+joker", "ranking": "poker-hand-class",
        "joker": True, "chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(CHART)],
        "prizes": [{"code": f"Z{i}", "cents": 1000 - 100 * i} for i in range(len(CHART))]}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}] + [{"id": h, "wins": [win("ph", f"Z{i}", 1000 - 100 * i)]}
                                                 for i, h in enumerate(CHART)]}


def judge(cards: list[int | None], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row = {"tier": [tier]} | {f"ph_card_{k}": [v] for k, v in enumerate(cards)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("text", "rank"), KNOWN, ids=[t for t, _ in KNOWN])
def test_each_known_hand_pays_the_prize_of_its_rank(text, rank):
    assert RANKS[int(hand_rank(np.array([hand(text)]), True)[0])] == rank
    tier = "lose" if rank == "none" else rank
    assert judge(hand(text), tier) == (0 if rank == "none" else 1000 - 100 * CHART.index(rank), [])


def test_a_loser_shown_a_paid_hand_is_refused():
    prize, why = judge(hand("2C 2D 2H 9S KC"), "lose")
    assert prize == 300 and why == ["its wins are not its tier 'lose''s (1 win(s) paying 300 cents)"]


def test_rule_1_names_every_code_out_of_range_then_the_cards_shown_twice():
    # read 2C (53 % 53), AS (a null: -2 % 53), 3S, 3S and the JOKER: three threes, still evaluated
    prize, why = judge([53, None, 7, 7, 52], "lose")
    assert why == ["ph: a code out of range in ph_card_0, ph_card_1; ph: a card shown twice: 3S; its wins "
                   "are not its tier 'lose''s (1 win(s) paying 300 cents)"] and prize == 300
    # the JOKER twice (wild, then AS) and three fours: four of a kind
    assert judge([52, 52, 9, 10, 11], "lose") == (700, ["ph: a card shown twice: JOKER; its wins are not its "
                                                        "tier 'lose''s (1 win(s) paying 700 cents)"])


def test_an_illegal_rows_second_joker_reads_as_the_ace_of_spades():
    # 53 % 53 = 0 (2C); the JOKER twice: wild at its first showing, AS at its second: AS AH AD + 2C, trips
    prize, _ = judge(hand("JOKER AH AD 2C JOKER"), "lose")
    assert prize == 1000 - 100 * CHART.index("four_of_a_kind")


@pytest.mark.parametrize("change", [
    {"deck": "standard-52"}, {"ranking": "poker-5-card-high"}, {"joker": 1}, {"chart": []},
    {"chart": [{"hand": "royal_flush", "prize": "Z0"}]},
    {"chart": [{"hand": "five_of_a_kind", "prize": "Q"}]},
    {"chart": [{"hand": "five_of_a_kind", "prize": "Z0"}, {"hand": "royal_flush", "prize": "Z0"}]},
    {"prizes": []}, {"prizes": [{"code": "Z0", "cents": "10"}]}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge(hand("2C 3D 5H 9S KC"), "lose", play)
    assert str(caught.value).startswith("manifest play entry: area 'ph': ")
