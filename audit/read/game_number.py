"""A printed game's number as ticket ids, barcodes and the pack list write it (docs/validation.md,
section 2): 0..9999, in decimal with at least three digits, `GGG` (leading zeros) for 0..999 and
`GGGG` for 1000..9999. A barcode number is that, the book's 7 digits, the ticket's 3 and two check
digits: 15 digits, or 16 for a game numbered 1000..9999. Written from the contract, not from poolgen.
"""

from __future__ import annotations

import numpy as np

MAX_GAME_NUMBER = 9999
BARCODE = ("GGG BBBBBBB TTT CC: game, book, ticket and two check digits, ISO/IEC 7064 MOD 97-10 (the "
           "15-digit number is 1 mod 97)")  # docs/validation.md, section 2; docs/manifest.md `print.barcode`
BARCODE_4 = ("GGGG BBBBBBB TTT CC: game, book, ticket and two check digits, ISO/IEC 7064 MOD 97-10 (the "
             "16-digit number is 1 mod 97)")  # the same, for a game numbered 1000..9999


def is_game_number(number: object) -> bool:
    """A whole number 0..9999 (not a bool)."""
    return isinstance(number, int) and not isinstance(number, bool) and 0 <= number <= MAX_GAME_NUMBER


def game_text(number: int) -> str:
    """`GGG` or `GGGG`: the number in decimal, zero-padded to three digits."""
    return f"{number:03d}"


def barcode_digits(number: object) -> int:
    """A barcode number's digits for this game: 16 for a game numbered 1000..9999, else 15 (anything not
    a game number is refused by its own check, docs/manifest.md `game.number`)."""
    return 16 if is_game_number(number) and number >= 1000 else 15  # type: ignore[operator]


def barcode_rule(number: object) -> str:
    """The manifest's `print.barcode` for this game."""
    return BARCODE_4 if barcode_digits(number) == 16 else BARCODE


def barcode_numbers(game: int, book: np.ndarray, ticket_no: np.ndarray) -> np.ndarray:
    """The barcode numbers of section 2 as integers: data digits N = game * 10^10 + book * 10^3 + ticket
    (13, or 14 for a game numbered 1000..9999), then 98 - (N * 100 mod 97); below 10^16, exact in int64."""
    data = np.int64(game) * 10**10 + book.astype(np.int64) * 1000 + ticket_no.astype(np.int64)
    numbers: np.ndarray = data * 100 + (98 - (data * 100) % 97)
    return numbers
