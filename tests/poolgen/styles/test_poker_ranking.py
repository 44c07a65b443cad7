"""A poker hand's RANK (poolgen/styles/poker_ranking.py) against docs/styles/poker_hand.md: the known
answers of tests/support/poker_ranks.py, and the exact number of hands of each RANK (section 9), with and
without the JOKER, each figure also derived in this file by counting the ways to pick ranks and suits."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from poolgen.styles.poker_ranking import (
    LEVELS,
    combinations_array,
    deck_hands,
    joker_counts,
    level_counts,
    levels,
)
from tests.support.poker_ranks import KNOWN, hand

NATURAL = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3_744, "flush": 5_108,
           "straight": 10_200, "three_of_a_kind": 54_912, "two_pair": 123_552, "jacks_or_better": 337_920,
           "five_of_a_kind": 0}
WITH_JOKER = {"five_of_a_kind": 13, "royal_flush": 24, "straight_flush": 180, "four_of_a_kind": 3_120,
              "full_house": 6_552, "flush": 7_804, "straight": 20_532, "three_of_a_kind": 137_280,
              "two_pair": 123_552, "jacks_or_better": 481_308}


@pytest.mark.parametrize(("text", "rank"), KNOWN, ids=[t for t, _ in KNOWN])
def test_each_known_hand_has_its_rank(text, rank):
    assert LEVELS[int(levels(np.array([hand(text)]))[0])] == rank


def test_the_natural_counts_are_the_textbook_ones_derived_from_ranks_and_suits():
    sequences = 10  # A-5 .. 10-A
    assert NATURAL["straight_flush"] + NATURAL["royal_flush"] == sequences * 4
    assert NATURAL["four_of_a_kind"] == 13 * 48
    assert NATURAL["full_house"] == 13 * comb(4, 3) * 12 * comb(4, 2)
    assert NATURAL["flush"] == 4 * (comb(13, 5) - sequences)
    assert NATURAL["straight"] == sequences * (4 ** 5 - 4)
    assert NATURAL["three_of_a_kind"] == 13 * 4 * comb(12, 2) * 16
    assert NATURAL["two_pair"] == comb(13, 2) * 36 * 44
    assert NATURAL["jacks_or_better"] == 4 * 6 * comb(12, 3) * 64


def test_the_joker_counts_follow_section_9s_reckoning():
    within = 10 * 5 - 9  # four distinct ranks within one sequence (41)
    joker = {"five_of_a_kind": 13, "royal_flush": 4 * 5, "straight_flush": 4 * (within - 5),
             "four_of_a_kind": 13 * 4 * 48, "full_house": comb(13, 2) * 36,
             "flush": 4 * (comb(13, 4) - within),
             "straight": within * (4 ** 4 - 4), "three_of_a_kind": 13 * 6 * comb(12, 2) * 16, "two_pair": 0}
    topped_low = comb(9, 4) - (5 * 5 - 4)  # four ranks of 2..10, less those within one sequence: 105
    joker["jacks_or_better"] = (comb(13, 4) - within - topped_low) * (4 ** 4 - 4)
    assert topped_low * 252 + sum(joker.values()) == comb(52, 4)
    assert {k: NATURAL[k] + v for k, v in joker.items()} == WITH_JOKER


@pytest.mark.parametrize(("joker", "expected"), [(False, NATURAL), (True, WITH_JOKER)], ids=["52", "53"])
def test_every_hand_of_the_deck_is_counted_in_its_rank_exactly(joker, expected):
    counts = dict(zip(LEVELS, level_counts(joker), strict=True))
    total = comb(52 + joker, 5)
    assert {k: counts[k] for k in expected} == expected
    assert counts["none"] == total - sum(expected.values())
    assert deck_hands(joker)[0].shape == (total, 5)


def test_the_hands_are_listed_in_itertools_order():
    assert combinations_array(9, 5).tolist() == [list(c) for c in combinations(range(9), 5)]


def _sets_topped(low: int) -> tuple[int, int]:
    """Of the sets of four distinct ranks no sequence holds (the JOKER pairs the highest: section 9), how
    many are topped at rank code `low` or higher, and how many below it, counted one set at a time."""
    sequences = [set(range(top - 4, top + 1)) for top in range(4, 13)] + [{12, 0, 1, 2, 3}]
    loose = [s for s in combinations(range(13), 4) if not any(set(s) <= q for q in sequences)]
    assert len(loose) == 674
    high = sum(max(s) >= low for s in loose)
    return high, len(loose) - high


def test_a_chart_from_a_pair_of_tens_counts_every_hand_of_52_and_53_cards_exactly():
    """Section 9: of 2,598,960 hands, 422,400 a pair of 10s or better and not better (5 pair ranks of
    84,480); of the 2,869,685 with the JOKER, 578,892, of which 156,492 show it (621 sets x 252 suits)."""
    pair = 6 * comb(12, 3) * 64  # one pair of a given rank: its suits, three other ranks, their suits
    plain = dict(zip(LEVELS, level_counts(False, 8), strict=True))
    assert (plain["jacks_or_better"], plain["none"]) == (5 * pair, 1_978_380) and pair == 84_480
    better = sum(v for k, v in NATURAL.items() if k != "jacks_or_better")
    assert plain["none"] == comb(52, 5) - 5 * pair - better
    high, low = _sets_topped(8)
    assert (high, low) == (621, 53)
    counts, shown = level_counts(True, 8), joker_counts(8)
    assert (counts[1], shown[1], counts[0], shown[0]) == (578_892, high * 252, 1_991_736, low * 252)
    assert counts[1] == 422_400 + 156_492 and sum(counts) == comb(53, 5)
    others = dict(zip(LEVELS, level_counts(True), strict=True))
    assert [counts[i] for i in range(2, len(LEVELS))] == [others[k] for k in LEVELS[2:]]


def test_ohios_ranking_kings_or_better_and_no_five_of_a_kind_counts_exactly():
    """Section 9: kings or better 168,960 + 93,996 with the JOKER (373 sets); the 13 hands of the JOKER and
    four of a rank are four of a kind: 3,133 hands, 2,509 with the JOKER; five of a kind none."""
    high, low = _sets_topped(11)
    counts, shown = level_counts(True, 11, False), joker_counts(11, False)
    got = {name: (counts[i], shown[i]) for i, name in enumerate(LEVELS)}
    assert got == {"none": (2_307_672, low * 252), "jacks_or_better": (168_960 + high * 252, 93_996),
                   "two_pair": (123_552, 0), "three_of_a_kind": (137_280, 82_368),
                   "straight": (20_532, 10_332),
                   "flush": (7_804, 2_696), "full_house": (6_552, 2_808), "four_of_a_kind": (3_133, 2_509),
                   "straight_flush": (180, 144), "royal_flush": (24, 20), "five_of_a_kind": (0, 0)}
    assert (high, low) == (373, 301) and sum(counts) == comb(53, 5)
    assert LEVELS[int(levels(np.array([hand("JOKER 9C 9D 9H 9S")]), 11, False)[0])] == "four_of_a_kind"
    assert LEVELS[int(levels(np.array([hand("JOKER 2C 7D 9H QS")]), 11, False)[0])] == "none"


def test_which_hands_show_the_joker_is_found_without_ranking_the_deck(monkeypatch):
    """joker_shown() ranked the 53-card deck under the default chart (five seconds, 2.9 MB) to read which
    hands hold code 52, also for a game of another ranking (Ohio's kings_or_better, no five of a kind)."""
    from poolgen.styles import poker_ranking

    monkeypatch.setattr(poker_ranking, "_LEVELS", {})
    monkeypatch.setattr(poker_ranking, "_SHOWN", {})
    shown = poker_ranking.joker_shown()
    assert poker_ranking._LEVELS == {}
    assert int(shown.sum()) == comb(52, 4)
    np.testing.assert_array_equal(shown, (combinations_array(53, 5) == 52).any(axis=1))
