"""Known answers of Texas Hold 'em showdowns (docs/styles/cards.md section 1, `deal = "hold_em"`: each
side's best five of its 2 cards and the 5 community cards, ranked by section 5), worked out by hand
from the contract, one reason each: (YOUR 2 cards, the DEALER'S 2, the board, relation of YOUR best
hand to the dealer's: > < =), cards as tests/support/poker_hands.py reads them."""

from __future__ import annotations

SHOWDOWNS: list[tuple[str, str, str, str, str]] = [
    ("2C 3D", "AH AD", "AS KS QS JS 10S", "=", "a royal flush on the board: both play it, a tie"),
    ("AC AD", "KH QC", "2C 7D 9H JS KD", ">", "a pair of aces in the hand over the dealer's kings"),
    ("KC 3D", "QC JD", "AH AD 7C 5S 2H", ">", "the board's aces, your king kicker over the queen"),
    ("2C 2D", "3H 4H", "9C 9D 5H 5S KC", "=", "your pocket pair counterfeited: both 9s and 5s, K"),
    ("AH 3H", "JD JS", "2H 7H 9H JC QD", ">", "your flush of two hole cards over the dealer's trips"),
    ("AC 9D", "6C 7D", "2C 3D 4H 5S KD", "<", "your wheel (5-high) under the dealer's 7-high straight"),
    ("2C 3C", "10D 2D", "5C 6D 7H 8S 9C", "<", "the board's straight, the dealer's ten extends it"),
    ("KC KD", "7C 2D", "7H 7S 7D KH 3C", "<", "kings full of sevens under the dealer's four sevens"),
    ("AS 2C", "KS 3D", "QS 9S 6S 4S 2D", ">", "a board of four spades: your ace-high flush over king-high"),
    ("AH KC", "AD KH", "2C 5D 9H JS 8C", "=", "the same ranks in other suits: a tie"),
]
