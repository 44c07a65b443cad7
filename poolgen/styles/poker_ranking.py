"""A poker hand's RANK (docs/styles/poker_hand.md, section 5): the class a chart pays, from
five_of_a_kind down to jacks_or_better, and none; the JOKER (code 52) wild. The hands of a deck in
their canonical order (section 8) with each one's RANK, made once per deck and kept."""

from __future__ import annotations

import numpy as np

from poolgen.styles.cards import DECK, HAND, table_scores

JOKER = DECK  # code 52
# by level, worst first: level 0 is no RANK a chart may list
LEVELS = ("none", "jacks_or_better", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
          "four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind")
FIVE_OF_A_KIND = len(LEVELS) - 1
_JACK, _ACE = 9, 12  # rank codes


def plain_levels(cards: np.ndarray) -> np.ndarray:
    """The level (index into LEVELS) of each (..., 5) hand of codes 0..51 of at most four of a rank."""
    score = table_scores(cards)
    category = score // 13 ** 5
    top = score % 13 ** 5 // 13 ** 4  # a straight's top card, a pair's rank: the first rank compared
    level = np.where(category == 0, 0, category)
    level = np.where((category == 1) & (top < _JACK), 0, level)
    level = np.where((category == 8) & (top == _ACE), 9, level)
    return np.asarray(level, dtype=np.int64)


def levels(cards: np.ndarray) -> np.ndarray:
    """The level of each (n, 5) hand of distinct codes of the deck with the JOKER (0..52): a hand
    showing the JOKER has the best level of the 52 hands with a card in its place (section 5)."""
    cards = np.asarray(cards, dtype=np.int64)
    joker = (cards == JOKER).any(axis=1)
    out = np.zeros(cards.shape[0], dtype=np.int64)
    if (~joker).any():
        out[~joker] = plain_levels(cards[~joker])
    if joker.any():
        rest = np.sort(cards[joker], axis=1)[:, :HAND - 1]  # the JOKER sorts last
        ranks = rest >> 2
        five = (ranks == ranks[:, :1]).all(axis=1)
        best = np.full(rest.shape[0], FIVE_OF_A_KIND, dtype=np.int64)
        other = np.flatnonzero(~five)
        if other.size:
            sub = np.zeros(other.size, dtype=np.int64)
            for c in range(DECK):
                hands = np.concatenate([rest[other], np.full((other.size, 1), c)], axis=1)
                sub = np.maximum(sub, plain_levels(hands))
            best[other] = sub
        out[joker] = best
    return out


def combinations_array(size: int, k: int) -> np.ndarray:
    """Every k-set of 0..size-1 as a sorted row, the rows in lexicographic order (itertools.combinations'
    order), as uint8."""
    c = np.arange(size, dtype=np.int64)[:, None]
    for _ in range(k - 1):
        last = c[:, -1]
        count = size - 1 - last
        offsets = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
        c = np.concatenate([np.repeat(c, count, axis=0), (np.repeat(last + 1, count) + offsets)[:, None]],
                           axis=1)
    return c.astype(np.uint8)


_HANDS: dict[bool, tuple[np.ndarray, np.ndarray]] = {}


def deck_hands(joker: bool) -> tuple[np.ndarray, np.ndarray]:
    """(H, each hand's level): every 5-card hand of the deck (52 cards, or 53 with the JOKER) in
    section 8's order, made once per deck."""
    if joker not in _HANDS:
        hands = combinations_array(DECK + joker, HAND)
        out = np.zeros(hands.shape[0], dtype=np.int64)
        step = 1 << 18
        for at in range(0, hands.shape[0], step):
            out[at:at + step] = levels(hands[at:at + step])
        _HANDS[joker] = (hands, out)
    return _HANDS[joker]


def level_counts(joker: bool) -> list[int]:
    """How many hands of the deck are of each level (docs/styles/poker_hand.md, section 9)."""
    return [int(n) for n in np.bincount(deck_hands(joker)[1], minlength=len(LEVELS))]
