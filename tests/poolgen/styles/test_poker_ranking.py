"""A poker hand's RANK (poolgen/styles/poker_ranking.py) against docs/styles/poker_hand.md: the known
answers of tests/support/poker_ranks.py, and the exact number of hands of each RANK (section 9), with and
without the JOKER, each figure also derived in this file by counting the ways to pick ranks and suits."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from poolgen.styles.poker_ranking import LEVELS, combinations_array, deck_hands, level_counts, levels
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
