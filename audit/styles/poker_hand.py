"""Poker hand, evaluated from docs/styles/poker_hand.md (sections 3 to 6) alone.

YOUR HAND of five cards (codes 0..51: rank c // 4, 2..A, suit c % 4; 52 the JOKER where `joker`), no
dealer: the hand wins the prize the CHART gives its RANK (section 5: five_of_a_kind, royal_flush, ...,
a pair of the chart's lowest pair or better; the JOKER wild, the best RANK of the 52 hands with a card in
its place; with `five_of_a_kind` false the JOKER and four of a rank four_of_a_kind), or nothing; with
`joker_multiplier` k a winning hand showing the JOKER wins k times. A row is illegal (section 6) when a
code is out of range or a card shows twice."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.cards import strength
from audit.styles.interface import HOWS, Reasons, Slot, int_columns

RANKS = ("none", "jacks_or_better", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
         "four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind")  # worst first
PAIRS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
         "kings", "aces")  # section 2: the one-pair line's `<pair>_or_better`, by rank 2 .. A
JOKER, ACE_OF_SPADES = 52, 51
_TEXT_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _text(code: int) -> str:
    return "JOKER" if code == JOKER else _TEXT_RANKS[code // 4] + "CDHS"[code % 4]


def chart_levels(chart: object, prizes: list[Any], five: bool) -> tuple[list[tuple[int, int]], int] | None:
    """((RANK index in RANKS, index in `prizes`) of each chart line, the lowest pair the one-pair line
    pays: a rank 0..12, 9 for jacks when the chart pays no pair), or None when the chart is not one
    section 2 accepts: from the best RANK the deck makes down (`five`: five_of_a_kind a rank), each once,
    the one-pair line any pair's, no prize twice."""
    codes = [p.get("code") for p in prizes]
    top = len(RANKS) - 1 if five else len(RANKS) - 2
    if not isinstance(chart, list) or not chart or len(chart) > top:
        return None
    out: list[tuple[int, int]] = []
    pair = 9
    for i, line in enumerate(chart):
        hand = line.get("hand") if isinstance(line, dict) else None
        names = [f"{p}_or_better" for p in PAIRS] if top - i == 1 else [RANKS[top - i]]
        if not (isinstance(line, dict) and hand in names and line.get("prize") in codes):
            return None
        pair = names.index(hand) if top - i == 1 else pair
        out.append((top - i, codes.index(line["prize"])))
    return (out, pair) if len({p for _, p in out}) == len(out) else None


def plain_rank(hands: np.ndarray, pair: int = 9) -> np.ndarray:
    """The RANK index of each (n, 5) hand of codes 0..51 (a card possibly twice: five of one rank is
    five_of_a_kind), a pair paying from rank `pair` (0..12) up."""
    s = strength(hands)
    category, first = s[:, 0], s[:, 1]
    rank = np.where((category == 1) & (first < pair), 0, category)
    rank = np.where((category == 8) & (first == 12), 9, rank)
    ranks = hands // 4
    return np.where((ranks == ranks[:, :1]).all(axis=1), 10, rank)


def hand_rank(hands: np.ndarray, joker: bool, pair: int = 9, five: bool = True) -> np.ndarray:
    """The RANK index of each (n, 5) hand of codes (52 the JOKER where `joker`): the JOKER's first
    showing is wild, the best of the 52 cards in its place; any other showing reads as AS. A pair pays
    from rank `pair` up; without `five`, five_of_a_kind is four_of_a_kind."""
    hands = hands.copy()
    out = np.zeros(hands.shape[0], dtype=np.int64)
    wild = (hands == JOKER).any(axis=1) if joker else np.zeros(hands.shape[0], dtype=bool)
    if joker:
        first = np.argmax(hands == JOKER, axis=1)
        again = (hands == JOKER) & (np.arange(5) != first[:, None])
        hands[again] = ACE_OF_SPADES
    if (~wild).any():
        out[~wild] = plain_rank(hands[~wild], pair)
    rows = np.flatnonzero(wild)
    if rows.size:
        best = np.zeros(rows.size, dtype=np.int64)
        at = first[rows]
        for card in range(52):
            trial = hands[rows].copy()
            trial[np.arange(rows.size), at] = card
            best = np.maximum(best, plain_rank(trial, pair))
        out[rows] = best
    return out if five else np.where(out == len(RANKS) - 1, RANKS.index("four_of_a_kind"), out)


def columns(area: dict[str, Any]) -> list[str]:
    return [f"{area['id']}_card_{i}" for i in range(5)]


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    prizes, joker = area.get("prizes"), area.get("joker")
    five, k = area.get("five_of_a_kind", True), area.get("joker_multiplier", 1)
    extra = ("five_of_a_kind" in area or "joker_multiplier" in area) and joker is not True
    ok = (isinstance(prizes, list) and prizes and type(joker) is bool and not extra
          and ("five_of_a_kind" not in area or five is False)
          and ("joker_multiplier" not in area or (type(k) is int and 2 <= k <= 10))
          and all(isinstance(p, dict) and type(p.get("cents")) is int and isinstance(p.get("code"), str)
                  for p in prizes)
          and area.get("deck") == ("standard-52+joker" if joker else "standard-52")
          and area.get("ranking") == "poker-hand-class")
    read = chart_levels(area.get("chart"), prizes, bool(joker) and five is not False) \
        if ok and isinstance(prizes, list) else None
    if read is None or not isinstance(prizes, list):
        raise ValueError(f"manifest play entry: area {aid!r}: deck, ranking, chart, prizes, joker, "
                         "five_of_a_kind or joker_multiplier unreadable")
    chart, pair = read
    size = 53 if joker else 52
    names = columns(area)
    codes = int_columns(table, names).astype(np.int64)
    n = table.height
    bad = (codes < 0) | (codes >= size)
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    inside = np.where(bad, -np.arange(1, 6) - 2, codes)
    ordered = np.sort(inside, axis=1)
    repeated = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    def twice(r: int) -> str:
        shown = [int(c) for c in codes[r]]
        return ", ".join(_text(c) for c in sorted({c for c in shown if 0 <= c < size and shown.count(c) > 1}))

    reasons.add(repeated, lambda r: f"{aid}: a card shown twice: {twice(r)}")
    hands = codes % size
    rank = hand_rank(hands, bool(joker), pair, five is not False)
    pays = np.full(len(RANKS), -1, dtype=np.int64)
    for level, p in chart:
        pays[level] = p
    box = pays[rank]
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    won = box >= 0
    box = np.where(won, box, 0)
    by = np.where(won & (hands == JOKER).any(axis=1), k, 1) if joker else np.ones(n, dtype=np.int64)
    return [Slot(won=won, how=np.full(n, HOWS.index("match"), dtype=np.int64), by=by.astype(np.int64),
                 prize=box, cents=cents[box])]
