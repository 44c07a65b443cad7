"""A poker hand's RANK (docs/styles/poker_hand.md, section 5): the class a chart pays, from
five_of_a_kind down to a pair of the chart's lowest paying rank or better (jacks_or_better unless the
chart says otherwise), and none; the JOKER (code 52) wild. The hands of a deck in their canonical order
(section 8) with each one's RANK, made once per deck and ranking and kept."""

from __future__ import annotations

import numpy as np

from poolgen.styles.cards import DECK, HAND, table_scores

JOKER = DECK  # code 52
# by level, worst first: level 0 is no RANK a chart may list
LEVELS = ("none", "jacks_or_better", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
          "four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind")
FIVE_OF_A_KIND = len(LEVELS) - 1
FOUR_OF_A_KIND = LEVELS.index("four_of_a_kind")
JACK, _ACE = 9, 12  # rank codes
# level 1's names by the lowest pair it pays (a rank code, 2 .. A): "tens_or_better" pays a pair of 10s up
PAIRS = ("twos_or_better", "threes_or_better", "fours_or_better", "fives_or_better", "sixes_or_better",
         "sevens_or_better", "eights_or_better", "nines_or_better", "tens_or_better", "jacks_or_better",
         "queens_or_better", "kings_or_better", "aces_or_better")


def level_name(level: int, pair: int = JACK) -> str:
    """A level's name in a chart: level 1 names its lowest paying pair (section 5)."""
    return PAIRS[pair] if level == 1 else LEVELS[level]


def plain_levels(cards: np.ndarray, pair: int = JACK) -> np.ndarray:
    """The level (index into LEVELS) of each (..., 5) hand of codes 0..51 of at most four of a rank, a
    pair ranking (level 1) from rank code `pair` up."""
    score = table_scores(cards)
    category = score // 13 ** 5
    top = score % 13 ** 5 // 13 ** 4  # a straight's top card, a pair's rank: the first rank compared
    level = np.where(category == 0, 0, category)
    level = np.where((category == 1) & (top < pair), 0, level)
    level = np.where((category == 8) & (top == _ACE), 9, level)
    return np.asarray(level, dtype=np.int64)


def levels(cards: np.ndarray, pair: int = JACK, five: bool = True) -> np.ndarray:
    """The level of each (n, 5) hand of distinct codes of the deck with the JOKER (0..52): a hand
    showing the JOKER has the best level of the 52 hands with a card in its place (section 5); without
    `five` (`five_of_a_kind = false`) the JOKER and four of a rank are four_of_a_kind."""
    cards = np.asarray(cards, dtype=np.int64)
    joker = (cards == JOKER).any(axis=1)
    out = np.zeros(cards.shape[0], dtype=np.int64)
    if (~joker).any():
        out[~joker] = plain_levels(cards[~joker], pair)
    if joker.any():
        rest = np.sort(cards[joker], axis=1)[:, :HAND - 1]  # the JOKER sorts last
        ranks = rest >> 2
        alike = (ranks == ranks[:, :1]).all(axis=1)  # four of one rank: the JOKER the fifth (or any card)
        best = np.full(rest.shape[0], FIVE_OF_A_KIND if five else FOUR_OF_A_KIND, dtype=np.int64)
        other = np.flatnonzero(~alike)
        if other.size:
            sub = np.zeros(other.size, dtype=np.int64)
            for c in range(DECK):
                hands = np.concatenate([rest[other], np.full((other.size, 1), c)], axis=1)
                sub = np.maximum(sub, plain_levels(hands, pair))
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


_HANDS: dict[bool, np.ndarray] = {}
_LEVELS: dict[tuple[bool, int, bool], np.ndarray] = {}
_SHOWN: dict[str, np.ndarray] = {}


def _deck(joker: bool) -> np.ndarray:
    """H alone, made once per deck (no ranking: what JOKER hands are needs none)."""
    if joker not in _HANDS:
        _HANDS[joker] = combinations_array(DECK + joker, HAND)
    return _HANDS[joker]


def deck_hands(joker: bool, pair: int = JACK, five: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(H, each hand's level): every 5-card hand of the deck (52 cards, or 53 with the JOKER) in
    section 8's order, made once per deck, and its level under the ranking (`pair`, `five`: `levels`),
    made once per ranking."""
    hands = _deck(joker)
    key = (joker, pair, five or not joker)
    if key not in _LEVELS:
        out = np.zeros(hands.shape[0], dtype=np.int8)  # a level per hand: 2.9 MB a ranking kept
        step = 1 << 18
        for at in range(0, hands.shape[0], step):
            out[at:at + step] = levels(hands[at:at + step], pair, five)
        _LEVELS[key] = out
    return hands, _LEVELS[key]


def level_counts(joker: bool, pair: int = JACK, five: bool = True) -> list[int]:
    """How many hands of the deck are of each level (docs/styles/poker_hand.md, section 9)."""
    return [int(n) for n in np.bincount(deck_hands(joker, pair, five)[1], minlength=len(LEVELS))]


def joker_shown() -> np.ndarray:
    """Whether each hand of the 53-card deck (section 8's order) shows the JOKER, made once."""
    if "shown" not in _SHOWN:
        _SHOWN["shown"] = (_deck(True) == JOKER).any(axis=1)  # no ranking made for it (5 s each)
    return _SHOWN["shown"]


def joker_counts(pair: int = JACK, five: bool = True) -> list[int]:
    """How many hands of the 53-card deck show the JOKER, by level (section 9)."""
    level = deck_hands(True, pair, five)[1]
    return [int(n) for n in np.bincount(level[joker_shown()], minlength=len(LEVELS))]
