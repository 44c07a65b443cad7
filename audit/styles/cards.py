"""Cards, evaluated from docs/styles/cards.md (sections 3 to 6) alone.

G games of YOUR five cards against the DEALER'S five with a PRIZE (`deal` "five", or absent), or of
YOUR two cards against the DEALER'S two with the game's five COMMUNITY cards, each side's hand the best
five of its seven (`deal` "hold_em", section 1), or of G of YOUR five cards against ONE DEALER'S five
(`dealer` "shared", section 1), all from one 52-card deck (card c: rank c // 4, 2..A,
suit c % 4); a game wins its prize when YOUR hand ranks above the dealer's in standard five-card poker
(section 5), or ties it where `ties` is "win". A row is illegal (section 6)
when a code is out of range or a card shows twice in the area."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns

RANK_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_TEXT = "CDHS"
# every straight as a 13-bit mask of ranks, with its top card (section 5): 2-6 .. 10-A, and the wheel
STRAIGHTS = {0b11111 << low: low + 4 for low in range(9)} | {(1 << 12) | 0b1111: 3}
TOP_OF_STRAIGHT = np.full(1 << 13, -1, dtype=np.int64)  # by mask of ranks present: the top, else -1
TOP_OF_STRAIGHT[list(STRAIGHTS)] = list(STRAIGHTS.values())


RANK_WORDS = ("TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN",
              "KING", "ACE")
SUIT_WORDS = ("CLUBS", "DIAMONDS", "HEARTS", "SPADES")


def _text(code: int) -> str:
    return RANK_TEXT[code % 52 // 4] + SUIT_TEXT[code % 4]


def deck_codes() -> list[str]:
    """The 52 cards' symbol codes, by card code (section 4): what an imaging file shows for each."""
    return [_text(c) for c in range(52)]


def deck_symbols() -> set[tuple[str, str, str]]:
    """(code, text, caption) of each of the 52 cards as an imaging file shows it (section 4)."""
    return {(_text(c), _text(c), f"{RANK_WORDS[c // 4]} {SUIT_WORDS[c % 4]}") for c in range(52)}


def strength(hands: np.ndarray) -> np.ndarray:
    """Per hand of an (n, 5) array of card codes: a (n, 6) array compared lexicographically, row
    against row: [category, then the ranks section 5 compares, highest first, padded with -1]."""
    n = hands.shape[0]
    ranks, suits = hands % 52 // 4, hands % 4
    tally = np.zeros((n, 13), dtype=np.int64)
    np.add.at(tally, (np.repeat(np.arange(n), 5), ranks.reshape(-1)), 1)
    # each present rank once, by (how many, rank), highest first; absent ranks sort last
    key = np.where(tally > 0, tally * 100 + np.arange(13), -1)
    groups = -np.sort(-key, axis=1)[:, :5]
    group_ranks = np.where(groups >= 0, groups % 100, -1)
    sizes = np.where(groups >= 0, groups // 100, 0)
    mask = (tally > 0).astype(np.int64) @ (1 << np.arange(13, dtype=np.int64))
    top_of_straight = TOP_OF_STRAIGHT[mask]
    straight = top_of_straight >= 0
    flush = (suits == suits[:, :1]).all(axis=1)
    first, second = sizes[:, 0], sizes[:, 1]
    category = np.full(n, 0, dtype=np.int64)
    for value, where in ((1, first == 2), (2, (first == 2) & (second == 2)), (3, first == 3),
                         (4, straight), (5, flush), (6, (first == 3) & (second == 2)), (7, first >= 4),
                         (8, straight & flush)):
        category = np.where(where, value, category)  # later (higher) categories override earlier ones
    out = np.full((n, 6), -1, dtype=np.int64)
    out[:, 0] = category
    out[:, 1:] = group_ranks
    out[straight, 1:] = -1
    out[straight, 1] = top_of_straight[straight]
    # an illegal row's card shown twice (section 6): a flush still by its five ranks, the highest first;
    # five of one rank as four of a kind whose kicker is that rank
    plain_flush = category == 5
    out[plain_flush, 1:] = -np.sort(-ranks[plain_flush], axis=1)
    five = first == 5
    out[five, 2] = out[five, 1]
    return out


def best_strength(cards: np.ndarray) -> np.ndarray:
    """Per row of an (n, 7) array of card codes: strength() of its best hand of five (section 1), the
    highest of its 21 hands of five, compared as strength() arrays are."""
    n = cards.shape[0]
    picks = [strength(cards[:, list(five)]) for five in combinations(range(7), 5)]
    best = picks[0]
    for pick in picks[1:]:
        above, _ = beats(pick, best)
        best = np.where(above[:, None], pick, best)
    return best.reshape(n, 6)


def beats(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(a ranks above b, a ties b) for two (n, 6) strength arrays, compared lexicographically."""
    differ = a != b
    first = np.argmax(differ, axis=1)
    rows = np.arange(a.shape[0])
    tie = ~differ.any(axis=1)
    return ~tie & (a[rows, first] > b[rows, first]), tie


def columns(area: dict[str, Any]) -> list[str]:
    """The area's layout columns in section 4's order: YOUR cards, the DEALER'S (one hand of 5 when
    shared), (hold_em) the COMMUNITY cards, the PRIZES."""
    aid, games, hold_em = area["id"], area["games"], area.get("deal", "five") == "hold_em"
    own = 2 if hold_em else 5
    mine = [f"{aid}_yours_{i}" for i in range(own * games)]
    if area.get("dealer", "each") == "shared":
        return mine + [f"{aid}_dealer_{i}" for i in range(5)] + [f"{aid}_prize_{g}" for g in range(games)]
    names = [f"{aid}_{part}_{i}" for part in ("yours", "dealer") for i in range(own * games)]
    names += [f"{aid}_community_{i}" for i in range(5 * games)] if hold_em else []
    return names + [f"{aid}_prize_{g}" for g in range(games)]


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    games, prizes, ties = area.get("games"), area.get("prizes"), area.get("ties")
    deal, dealer = area.get("deal", "five"), area.get("dealer", "each")
    shared = dealer == "shared"  # one DEALER'S HAND for every game (section 1)
    if not (type(games) is int and 1 <= games <= (9 if shared else 5) and area.get("deck") == "standard-52"
            and area.get("ranking") == "poker-5-card-high" and ties in ("win", "lose")
            and deal in ("five", "hold_em") and dealer in ("each", "shared")
            and not (shared and deal != "five")
            and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)):
        raise ValueError(f"manifest play entry: area {aid!r}: games, deck, ranking, prizes, ties, deal or "
                         "dealer unreadable")
    own = 2 if deal == "hold_em" else 5  # each side's own cards a game (section 4)
    names = columns(area)
    codes = int_columns(table, names).astype(np.int64)
    n = table.height
    m = len(names) - games
    cards, boxes = codes[:, :m], codes[:, m:]
    bad = np.concatenate([(cards < 0) | (cards >= 52), (boxes < 0) | (boxes >= len(prizes))], axis=1)
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    # only cards of the deck repeat: a null or a code out of range is rule 1's, no card shown twice
    ordered = np.sort(np.where((cards >= 0) & (cards < 52), cards, -np.arange(1, m + 1) - 2), axis=1)
    repeated = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    reasons.add(repeated, lambda r: "{}: a card shown twice: {}".format(aid, ", ".join(
        _text(c) for c in sorted({int(c) for c in cards[r] if 0 <= c < 52 and list(cards[r]).count(c) > 1}))))
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    slots = []
    for g in range(games):
        mine = cards[:, own * g:own * g + own]
        first = own * games if shared else own * (games + g)  # the one DEALER'S HAND, or game g's
        theirs = cards[:, first:first + own]
        if deal == "hold_em":
            board = cards[:, 2 * own * games + 5 * g:2 * own * games + 5 * g + 5]
            yours = best_strength(np.concatenate([mine, board], axis=1))
            dealer = best_strength(np.concatenate([theirs, board], axis=1))
        else:
            yours, dealer = strength(mine), strength(theirs)
        above, tie = beats(yours, dealer)
        won = above | (tie & (ties == "win"))
        box = np.clip(boxes[:, g], 0, len(prizes) - 1)
        slots.append(Slot(won=won, how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(n, dtype=np.int64), prize=box, cents=cents[box]))
    return slots
