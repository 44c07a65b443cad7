"""A stand-alone reference for printed identities (docs/validation.md, section 2), used to write
barcodes.txt: the game number in decimal with at least three digits (`GGG`, or `GGGG` for a game
numbered 1000 to 9999), the ticket id `GAME-BBBBBBB-TTT`, the barcode number GAME BBBBBBB TTT CC with
CC = 98 - (N * 100 mod 97), N the data digits read as a number; and, for 16-digit barcodes, validation
records written by reference_validation.py (section 3: B as 7 bytes, below 10^16 < 2^56). It shares no
code with poolgen or audit: the digits are built by hand, digit by digit.

    python tests/vectors/reference_barcodes.py > tests/vectors/barcodes.txt
"""

from __future__ import annotations

import hashlib

from reference_validation import key_check, known, record, value

DIGITS = "0123456789"


def decimal(n: int, width: int) -> str:
    """n in decimal with at least `width` digits (leading zeros), digit by digit."""
    out = ""
    while n or not out:
        out = DIGITS[n % 10] + out
        n //= 10
    return DIGITS[0] * (width - len(out)) + out


def identity(game: int, book: int, ticket: int) -> tuple[str, str]:
    """(ticket id, barcode number) of a ticket."""
    g = decimal(game, 3)  # 3 digits 0..999, 4 digits 1000..9999
    data = g + decimal(book, 7) + decimal(ticket, 3)
    n = 0
    for ch in data:
        n = n * 10 + DIGITS.index(ch)
    return f"{g}-{decimal(book, 7)}-{decimal(ticket, 3)}", data + decimal(98 - n * 100 % 97, 2)


TICKETS = [(0, 0, 0), (7, 4, 34), (465, 0, 0), (999, 9_999_999, 999), (1000, 0, 0), (1403, 17, 5),
           (2029, 1_234_567, 42), (2029, 0, 74), (9999, 9_999_999, 999)]
KEY = hashlib.sha256(b"poolgen four-digit barcode vector key").digest()
# 16-digit barcodes' records: (run id, tier, threshold, game, book, ticket, VIRN, prize in cents, free)
RECORDS = [("texas-2029", "low", 60000, 2029, 1_234_567, 42, "000123456789", 500, False),
           ("texas-2029", "high", 60000, 2029, 1_234_567, 42, "000123456789", 500, False),
           ("texas-2029", "high", 60000, 2029, 97_773, 74, "999999999999999999", 10_000_000, False),
           ("max", "low", 60000, 9999, 9_999_999, 999, "123456789", 100, True)]


def main() -> None:
    print("# Known-answer printed identities (docs/validation.md, section 2): game, book, ticket, the ticket")
    print("# id and the barcode number; then validation records (section 3, the fields of validation.txt)")
    print("# of 16-digit barcode numbers (games numbered 1000 to 9999), key = sha256(b'poolgen four-digit")
    print("# barcode vector key'). Written by `python tests/vectors/reference_barcodes.py >")
    print("# tests/vectors/barcodes.txt`, sharing no code with poolgen or audit.")
    for game, book, ticket in TICKETS:
        tid, code = identity(game, book, ticket)
        print(f"game={game} book={book} ticket={ticket} id={tid} barcode={code}")
    for run_id, tier, threshold, game, book, ticket, virn, prize, free in RECORDS:
        code = identity(game, book, ticket)[1]
        held = value(tier, threshold, prize, free)
        print(f"key={KEY.hex()} run={run_id} tier={tier} threshold={threshold} barcode={code} virn={virn} "
              f"prize={prize} free={int(free)} value={held} key_check={key_check(KEY)} "
              f"record={record(KEY, run_id, code, virn, held).hex()} known={known(KEY, run_id, code).hex()}")


if __name__ == "__main__":
    main()
