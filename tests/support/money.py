"""Amounts a regulation prints that are not exact in binary, shared by both sides' money tests."""

from __future__ import annotations

# (text, cents, well formed): every one of these but "$1,2500.00" is how a regulation prints money.
NOT_EXACT_IN_BINARY = [
    ("$19.99", 1999, True), ("0.29", 29, True), ("$1,004.15", 100415, True), ("7.50", 750, True),
    ("$2.30", 230, True), ("$4.35", 435, True), ("1.15", 115, True), ("$999,999,999.99", 99999999999, True),
    ("$1,2500.00", 1250000, False),  # grouped oddly: read without its commas, reported as odd
]
