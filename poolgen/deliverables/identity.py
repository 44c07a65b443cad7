"""A printed ticket's identity on paper: its barcode number, its validation number (VIRN) and the
secret numbering of the order's books (docs/validation.md, section 2).

- Barcode number: 15 digits `GGG BBBBBBB TTT CC` (16, `GGGG BBBBBBB TTT CC`, for a game numbered
  1000..9999: the game number is written with at least 3 digits, `game_text`): game number, book
  number, ticket number in the book, and two check digits by ISO/IEC 7064 MOD 97-10 (the IBAN check):
  CC = 98 - (N * 100 mod 97) where N = game * 10^10 + book * 10^3 + ticket (the 13 or 14 data digits
  read as a number), so that the whole number is 1 mod 97. It
  catches every single-digit error and every transposition of two adjacent digits, check digits
  included (a substitution changes the number by d * 10^k, a transposition by 9 (a - b) 10^k, with
  0 < |d|, |9 (a - b)| < 97 and 97 prime). The barcode depends only on game, book and ticket.
- VIRN: `virn_digits` decimal digits (default 12) per ticket, uniform in [0, 10^digits), one per
  ticket in pool order from the pool's "virn" stream (docs/randomness.md).
- Book numbers: the order's book slots 0 .. S-1 (pool k's slots are its `first_book ..
  first_book + books - 1`) are numbered by one uniform permutation of S from the order's "books"
  stream: slot s is printed as book `perm[s]`. A book's number says nothing about its pool. Given a
  book key held apart from the run seed (Key Dual Security, US7374484), the permutation is the key's
  instead: slot s is printed as the rank of HMAC-SHA256(key, "poolgen/books/v1" || lp(rules) ||
  u64(s)) among the S slots' tags (docs/validation.md), which audit recomputes given the key.
"""

from __future__ import annotations

import hashlib
import hmac

import numpy as np

from poolgen.rng import derive_stream, integers, permutation
from poolgen.rng.labels import LABEL_ROOT, stream_label

MOD = 97
BARCODE_DIGITS = 15  # a game numbered 0..999; 16 for 1000..9999 (`barcode_digits`)


def game_text(game: int) -> str:
    """A game number as ticket ids, barcodes and the pack list write it: `GGG` (0..999, leading zeros)
    or `GGGG` (1000..9999)."""
    return f"{game:03d}"


def barcode_digits(game: int) -> int:
    """The digits of a barcode number of this game: 15, or 16 for a game numbered 1000..9999."""
    return len(game_text(game)) + 12


GAME_PATTERN = "(?:[0-9]{3}|[1-9][0-9]{3})"  # a game number as written (`game_text`), as a regex


def barcode_fields(barcode: str) -> tuple[str, str, str, str]:
    """A barcode number's game, book, ticket and check digits as written (15 or 16 digits)."""
    g = len(barcode) - 12
    return barcode[:g], barcode[g:g + 7], barcode[g + 7:g + 10], barcode[g + 10:]


def is_barcode_text(text: str) -> bool:
    """Text shaped as a barcode number: 15 ASCII digits, or 16 whose first is not 0 (a game numbered
    1000..9999; a 16-digit text starting with 0 would read as the number of a 15-digit one)."""
    return (text.isascii() and text.isdigit()
            and (len(text) == BARCODE_DIGITS or (len(text) == BARCODE_DIGITS + 1 and text[0] != "0")))


def check_digits(data: str) -> str:
    """The two ISO/IEC 7064 MOD 97-10 check digits of a string of decimal digits."""
    return f"{98 - int(data + '00') % MOD:02d}"


def is_valid(number: str) -> bool:
    """A number with its MOD 97-10 check digits appended reads 1 mod 97."""
    return number.isdigit() and int(number) % MOD == 1


def barcode(game: int, book: int, ticket_no: int) -> str:
    data = f"{game_text(game)}{book:07d}{ticket_no:03d}"
    return data + check_digits(data)


def barcode_numbers(game: int, book: np.ndarray, ticket_no: np.ndarray) -> np.ndarray:
    """`barcode` for many tickets at once, as integers (int64; below 10^16)."""
    data = np.int64(game) * 10**10 + book.astype(np.int64) * 1000 + ticket_no.astype(np.int64)
    numbers: np.ndarray = data * 100 + (98 - (data * 100) % MOD)  # below 10^16: exact in int64
    return numbers


def barcodes(game: int, book: np.ndarray, ticket_no: np.ndarray) -> np.ndarray:
    """`barcode` for many tickets at once, as fixed-width ASCII (numpy S15, or S16 for a 4-digit game)."""
    return digits_text(barcode_numbers(game, book, ticket_no), barcode_digits(game))


def digits_text(values: np.ndarray, digits: int) -> np.ndarray:
    """Non-negative integers as `digits`-wide decimal ASCII with leading zeros (numpy S<digits>)."""
    return np.char.zfill(values.astype(f"S{digits}"), digits)


def book_label(rules: str) -> tuple[str, ...]:
    """The label of the order's book-numbering stream (one per order, not per pool)."""
    return (LABEL_ROOT, rules, "order", "books")


def book_numbers(seed: bytes, rules: str, slots: int) -> np.ndarray:
    """The printed book number of each of the order's `slots` book slots."""
    return permutation(derive_stream(seed, *book_label(rules)), slots).astype(np.uint32)


BOOK_KEY_LABEL = b"poolgen/books/v1"


def keyed_book_numbers(key: bytes, rules: str, slots: int) -> np.ndarray:
    """The printed book number of each book slot under a book key: slot s's rank among the slots' tags."""
    prefix = BOOK_KEY_LABEL + len(rules.encode()).to_bytes(8, "big") + rules.encode()
    tags = [hmac.new(key, prefix + s.to_bytes(8, "big"), hashlib.sha256).digest() for s in range(slots)]
    order = sorted(range(slots), key=lambda s: (tags[s], s))
    numbers = np.empty(slots, dtype=np.uint32)
    numbers[np.array(order, dtype=np.int64)] = np.arange(slots, dtype=np.uint32)
    return numbers


def virn_values(seed: bytes, rules: str, pool_id: str, tickets: int, digits: int) -> np.ndarray:
    """Every ticket's validation number in pool order, as integers below 10^digits (int64)."""
    stream = derive_stream(seed, *stream_label(rules, pool_id, "virn"))
    values: np.ndarray = integers(stream, 10**digits, size=tickets)
    return values


def virns(seed: bytes, rules: str, pool_id: str, tickets: int, digits: int) -> np.ndarray:
    """Every ticket's validation number in pool order, as `digits`-wide ASCII (numpy S<digits>)."""
    return digits_text(virn_values(seed, rules, pool_id, tickets, digits), digits)
