"""The auditor's poker_hand engine (audit/styles/poker_hand.py) on the rules of docs/styles/poker_hand.md
that Ohio's Joker Poker and a tens-or-better chart need (sections 2, 3, 5 and 6): a chart whose pair line
names another pair (`tens_or_better`, `kings_or_better`), `five_of_a_kind` false (the JOKER and four of a
rank are four_of_a_kind) and `joker_multiplier` (a winning hand showing the JOKER wins `by` k, one without
it `by` 1); and the entries of those keys it cannot read."""

from __future__ import annotations

import copy

import numpy as np
import polars as pl
import pytest

from audit.styles.play import evaluate
from audit.styles.poker_hand import RANKS, hand_rank
from tests.support.play_entries import win
from tests.support.poker_ranks import hand

OHIO = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
        "three_of_a_kind", "two_pair", "kings_or_better"]
AREA = {"id": "ph", "style": "poker_hand", "deck": "standard-52+joker", "ranking": "poker-hand-class",
        "joker": True, "five_of_a_kind": False, "joker_multiplier": 2,
        "chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(OHIO)],
        "prizes": [{"code": f"Z{i}", "cents": 1000 - 100 * i} for i in range(len(OHIO))]}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}]
        + [{"id": h, "wins": [win("ph", f"Z{i}", 1000 - 100 * i)]} for i, h in enumerate(OHIO)]
        + [{"id": f"{h}_joker", "wins": [win("ph", f"Z{i}", 1000 - 100 * i, by=2)]}
           for i, h in enumerate(OHIO) if h != "two_pair"]}


def judge(cards: list[int], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row = {"tier": [tier]} | {f"ph_card_{k}": [v] for k, v in enumerate(cards)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("text", "pair", "rank"), [
    ("10C 10D AH 7S 2C", 8, "jacks_or_better"), ("9C 9D AH 7S 2C", 8, "none"),
    ("JOKER 2C 7D 9H 10S", 8, "jacks_or_better"), ("JOKER 2C 7D 9H 8S", 8, "none"),
    ("QC QD AH 7S 2C", 11, "none"), ("KC KD AH 7S 2C", 11, "jacks_or_better"),
    ("JOKER 2C 7D 9H QS", 11, "none"), ("JOKER 2C 7D 9H KS", 11, "jacks_or_better"),
    ("2C 2D 5H 7S 9C", 0, "jacks_or_better")])
def test_a_pair_ranks_from_the_charts_pair_up(text, pair, rank):
    """Section 5: index 1 of RANKS is the one-pair rank, whichever pair the chart names."""
    assert RANKS[int(hand_rank(np.array([hand(text)]), True, pair)[0])] == rank


def test_without_five_of_a_kind_the_joker_and_four_of_a_rank_are_four_of_a_kind():
    four = hand("JOKER 9C 9D 9H 9S")
    assert RANKS[int(hand_rank(np.array([four]), True, 9, False)[0])] == "four_of_a_kind"
    assert RANKS[int(hand_rank(np.array([four]), True, 9, True)[0])] == "five_of_a_kind"
    assert judge(four, "four_of_a_kind_joker") == (2 * 800, [])


@pytest.mark.parametrize(("text", "tier", "cents"), [
    ("JOKER KS QS JS 10S", "royal_flush_joker", 2 * 1000), ("AS KS QS JS 10S", "royal_flush", 1000),
    ("JOKER 9C 9D 4H 2S", "three_of_a_kind_joker", 2 * 400), ("9H 9C 9D 4H 2S", "three_of_a_kind", 400),
    ("JOKER 2C 7D 9H KS", "kings_or_better_joker", 2 * 200), ("KH KC 7D 9H 2S", "kings_or_better", 200),
    ("JOKER 2C 7D 9H QS", "lose", 0)])
def test_a_winning_hand_showing_the_joker_wins_k_times_and_one_without_it_once(text, tier, cents):
    assert judge(hand(text), tier) == (cents, [])


def test_a_tier_without_the_joker_never_shows_it_and_one_with_it_always_does():
    assert judge(hand("JOKER 9C 9D 4H 2S"), "three_of_a_kind") == (
        800, ["its wins are not its tier 'three_of_a_kind''s (1 win(s) paying 800 cents)"])
    assert judge(hand("9H 9C 9D 4H 2S"), "three_of_a_kind_joker") == (
        400, ["its wins are not its tier 'three_of_a_kind_joker''s (1 win(s) paying 400 cents)"])


@pytest.mark.parametrize("change", [
    {"five_of_a_kind": True}, {"five_of_a_kind": 0}, {"joker_multiplier": 1}, {"joker_multiplier": 11},
    {"joker_multiplier": 2.0}, {"joker_multiplier": True},
    {"joker": False, "deck": "standard-52"},  # both keys without the JOKER
    {"chart": [{"hand": "five_of_a_kind", "prize": "Z0"}]},  # no five of a kind: the chart starts royal
    {"chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(OHIO[:-1] + ["tens"])]}])
def test_entries_of_the_new_keys_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError, match="^manifest play entry: area 'ph': deck, ranking, chart, prizes, "
                                         "joker, five_of_a_kind or joker_multiplier unreadable$"):
        judge(hand("2C 3D 5H 9S KC"), "lose", play)
