"""The auditor's cards engine (audit/styles/cards.py, audit/styles/play.py) from docs/styles/cards.md:
its hand ranking against the known answers of tests/vectors/poker_hands.txt, and on a play entry and
tables written by hand: a better hand wins its prize, ties as the entry says, codes out of range, a
card shown twice, and the entries it cannot read."""

from __future__ import annotations

import copy

import numpy as np
import polars as pl
import pytest

from audit.styles.cards import beats, deck_symbols, strength
from audit.styles.play import evaluate
from tests.support.play_entries import win
from tests.support.poker_hands import CATEGORIES, COMPARISONS, hand

AREA = {"id": "pk", "style": "cards", "games": 2, "deck": "standard-52", "ranking": "poker-5-card-high",
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}], "ties": "lose"}
PLAY = {"max_wins": 2, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "w5", "wins": [win("pk", "5", 500)]},
                  {"id": "w6", "wins": [win("pk", "1", 100), win("pk", "5", 500)]}]}
ROYAL, QUADS, WHEEL = "AS KS QS JS 10S", "9H 9D 9S 9C 2D", "AH 2D 3H 4C 5S"
SIXES, NOTHING, NOTHING_OTHER_SUITS = "6C 6D KH 8S 3C", "AD QD 9S 5C 3D", "AC QH 9C 5S 3H"


@pytest.mark.parametrize(("text", "category"), CATEGORIES)
def test_each_category_as_the_vectors_say(text, category):
    assert int(strength(np.array([hand(text)]))[0, 0]) == category


@pytest.mark.parametrize(("a", "relation", "b"), COMPARISONS)
def test_hands_compare_as_the_vectors_say(a, relation, b):
    x, y = strength(np.array([hand(a)])), strength(np.array([hand(b)]))
    (above,), (tie,) = beats(x, y)
    (below,), _ = beats(y, x)
    assert (bool(above), bool(below), bool(tie)) == (relation == ">", relation == "<", relation == "=")


def test_the_deck_as_imaging_shows_it():
    deck = deck_symbols()
    assert len(deck) == 52 and ("AS", "AS", "ACE SPADES") in deck and ("10H", "10H", "TEN HEARTS") in deck
    assert ("2C", "2C", "TWO CLUBS") in deck


def judge(games: list[tuple[str, str]], boxes: list[int], tier: str, play: dict = PLAY,
          codes: dict[str, int] | None = None):
    row: dict[str, list[object]] = {"tier": [tier]}
    for part, k in (("yours", 0), ("dealer", 1)):
        cards = [c for g in games for c in hand(g[k])]
        row |= {f"pk_{part}_{i}": [c] for i, c in enumerate(cards)}
    row |= {f"pk_prize_{g}": [b] for g, b in enumerate(boxes)}
    row |= {k: [v] for k, v in (codes or {}).items()}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("games", "boxes", "tier", "cents"), [
    ([(NOTHING, SIXES), (WHEEL, ROYAL)], [1, 1], "lose", 0),
    ([(SIXES, NOTHING), (WHEEL, ROYAL)], [1, 0], "w5", 500),
    ([(SIXES, "7H 7D 2S 2C 4H"), (ROYAL, QUADS)], [0, 1], "w5", 500),
    ([(ROYAL, QUADS), (SIXES, "AH QH 10C 8D 4D")], [1, 0], "w6", 600)])
def test_a_better_hand_wins_its_prize(games, boxes, tier, cents):
    assert judge(games, boxes, tier) == (cents, [])


def test_an_exact_tie_loses_or_wins_as_the_entry_says():
    games = [(NOTHING, NOTHING_OTHER_SUITS), (SIXES, "7H 7D 2S 2C 4H")]
    assert judge(games, [1, 1], "lose") == (0, [])
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | {"ties": "win"}
    assert judge(games, [1, 1], "w5", play) == (500, [])


def test_a_card_shown_twice_is_illegal():
    games = [(NOTHING, SIXES), (WHEEL, "AD KS QS JS 10S")]  # AD twice; a spade flush short of KS..AS
    assert judge(games, [1, 1], "lose") == (0, ["pk: a card shown twice: AD"])


def test_a_code_out_of_range():
    games = [(NOTHING, SIXES), (WHEEL, ROYAL)]
    assert judge(games, [1, 1], "lose", codes={"pk_yours_9": 60, "pk_prize_1": 2}) == (0, [
        "pk: a code out of range in pk_yours_9, pk_prize_1"])


@pytest.mark.parametrize(("codes", "listed"), [
    ({"pk_yours_0": None, "pk_dealer_0": None}, "pk_yours_0, pk_dealer_0"),  # no card: not AH twice
    ({"pk_yours_0": 60, "pk_dealer_0": 60}, "pk_yours_0, pk_dealer_0"),  # not 4C twice (no 4C shows)
    ({"pk_yours_0": 255, "pk_dealer_9": 255}, "pk_yours_0, pk_dealer_9")])
def test_codes_out_of_range_are_no_card_shown_twice(codes, listed):
    """Rule 1 alone: a null or a code of 52 or more is no card of the deck, so two of them are not "a card
    shown twice" (which would name a card the ticket need not show)."""
    games = [(NOTHING, SIXES), (WHEEL, ROYAL)]
    assert judge(games, [1, 1], "lose", codes=codes) == (0, [f"pk: a code out of range in {listed}"])


@pytest.mark.parametrize("change", [{"games": 0}, {"games": 6}, {"deck": "pinochle"}, {"ranking": "lowball"},
                                    {"ties": "split"}, {"prizes": []}, {"prizes": [{"code": "1"}]}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge([(NOTHING, SIXES), (WHEEL, ROYAL)], [1, 1], "lose", play)
    assert str(caught.value).startswith("manifest play entry: area 'pk': ")


@pytest.mark.parametrize(("a", "b", "a_strength"), [
    ("QC QC 8C 3C 2C", "QC 8C 6C 3C 2C", [5, 10, 10, 6, 1, 0]),  # a flush: its five ranks, highest first
    ("AS AS AH AD AC", "AS AH AD AC KC", [7, 12, 12, -1, -1, -1]),  # five aces: four, an ace the kicker
])
def test_a_hand_showing_a_card_twice_ranks_as_its_ranks_and_suits_say(a, b, a_strength):
    """An illegal row's amount (section 6): Q Q 8 3 2 of clubs compares as a flush, by all five ranks,
    above Q 8 6 3 2 (not by a pair first); five aces are four aces with an ace kicker."""
    x, y = strength(np.array([hand(a)])), strength(np.array([hand(b)]))
    (above,), _ = beats(x, y)
    assert (bool(above), x[0].tolist()) == (True, a_strength)


PRIZE_UNREADABLE = ("manifest play entry: area 'pk': prizes is not a non-empty list of {code, cents} "
                    "(cents 0..2^40 - 1)")


@pytest.mark.parametrize("prize", [{"cents": 900}, {"code": 9, "cents": 900}, {"code": "9", "cents": -1},
                                   {"code": "9", "cents": 1 << 40}, {"code": "9", "cents": 9.0},
                                   {"code": "9", "cents": True}, {"code": "9", "cents": "900"}, "9"])
def test_a_prize_no_row_shows_that_is_not_code_and_cents_in_range_stops_the_step(prize):
    play = copy.deepcopy(PLAY)
    play["areas"][0]["prizes"].append(prize)
    with pytest.raises(ValueError) as caught:
        judge([(NOTHING, SIXES), (WHEEL, ROYAL)], [1, 1], "lose", play)
    assert str(caught.value) == PRIZE_UNREADABLE
