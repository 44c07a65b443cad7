"""Known answers of a poker hand's RANK (docs/styles/poker_hand.md, section 5), worked by hand from the
section's table and its JOKER rule, as card codes (rank * 4 + suit; the JOKER 52), for the tests of
poolgen's ranking (poolgen/styles/poker_ranking.py), audit's engine (audit/styles/poker_hand.py) and the
third engines (tests/third_engines/cards.py, poker_lab.py)."""

from __future__ import annotations

from tests.support.poker_hands import hand as plain_hand

JOKER = 52
# (hand as printed, its RANK): every RANK, its edges (the wheel, a royal's one-gap straight flush, a
# pair of tens against jacks), and the JOKER in each role
KNOWN = [
    ("AS KS QS JS 10S", "royal_flush"),
    ("5D 4D 3D 2D AD", "straight_flush"),
    ("KH QH JH 10H 9H", "straight_flush"),
    ("9C 9D 9H 9S 2C", "four_of_a_kind"),
    ("3C 3D 3H 2S 2C", "full_house"),
    ("AC 9C 7C 4C 2C", "flush"),
    ("AC 2D 3H 4S 5C", "straight"),
    ("10C JD QH KS AC", "straight"),
    ("QC KD AH 2S 3C", "none"),
    ("7C 7D 7H KS 2C", "three_of_a_kind"),
    ("AC AD 9H 9S 2C", "two_pair"),
    ("2C 2D 3H 3S 4C", "two_pair"),
    ("JC JD 4H 7S 2C", "jacks_or_better"),
    ("AC AD 4H 7S 2C", "jacks_or_better"),
    ("10C 10D AH 7S 2C", "none"),
    ("AC KD 9H 7S 2C", "none"),
    ("JOKER AS KS QS JS", "royal_flush"),
    ("JOKER AS KS QS 10S", "royal_flush"),
    ("JOKER 9C 9D 9H 9S", "five_of_a_kind"),
    ("JOKER 9C 9D 9H 2S", "four_of_a_kind"),
    ("JOKER 9C 9D 2H 2S", "full_house"),
    ("JOKER 9C 8C 7C 5C", "straight_flush"),
    ("JOKER AD 2D 3D 4D", "straight_flush"),
    ("JOKER AC 9C 7C 4C", "flush"),
    ("JOKER 9C 8D 7C 5C", "straight"),
    ("JOKER 9C 9D 7H 2S", "three_of_a_kind"),
    ("JOKER 2C 7D 9H KS", "jacks_or_better"),
    ("JOKER 2C 7D 9H 10S", "none"),
    ("JOKER 2C 7D 9H JS", "jacks_or_better"),
]


def hand(text: str) -> list[int]:
    """'JOKER AS KS QS JS' -> [52, 51, 47, 43, 39]."""
    return [JOKER if card == "JOKER" else plain_hand(card)[0] for card in text.split()]
