"""The known-answer vectors of five-card poker hand ranking (tests/vectors/poker_hands.txt, which
says how they were produced), read as card codes of docs/styles/cards.md section 4 (rank * 4 + suit),
for the tests of both engines: poolgen's (poolgen/styles/cards.py) and audit's (audit/styles/cards.py)."""

from __future__ import annotations

from pathlib import Path

VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "poker_hands.txt"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = "CDHS"


def hand(text: str) -> list[int]:
    """'AS KD 10H 2C 3C' -> [51, 46, 34, 0, 4]."""
    return [RANKS.index(card[:-1]) * 4 + SUITS.index(card[-1]) for card in text.split()]


def vectors() -> tuple[list[tuple[str, int]], list[tuple[str, str, str]]]:
    """(hand, category) pins and (hand, relation, hand) comparisons, relation one of > < =."""
    categories, comparisons = [], []
    for line in VECTORS.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("category: "):
            text, value = line.removeprefix("category: ").split(" = ")
            categories.append((text, int(value)))
            continue
        for relation in (" > ", " < ", " = "):
            if relation in line:
                a, b = line.split(relation)
                comparisons.append((a, relation.strip(), b))
                break
        else:
            raise ValueError(f"unreadable vector line {line!r}")
    return categories, comparisons


CATEGORIES, COMPARISONS = vectors()
