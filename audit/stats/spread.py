"""Step 8's tells spread over several spots (docs/statistics.md 1l): what a losing ticket's match_n area
shows taken together, and how near a key_number_match area's YOUR NUMBERS come to its WINNING NUMBERS,
tested by 1j and 1k as a single spot is.

A loser of a match_n area shows each amount in at most match - 1 spots. An insider can leave every single
spot's law as it is and still make a pattern of several spots say that the next ticket wins (two spots
showing one amount, an amount shown twice, the spots' amounts all paired): the count of each prize symbol
over the area's spots, and how many prize symbols show in two or more spots, are features of the whole area
that a single spot's test does not read. Their values on losers are drawn, as every loser's layout, from the
losers' law wherever the ticket lies, so 1j's and 1k's nulls hold for them unchanged.

A poker hand (a poker_hand area's, a cards area's YOUR cards) is the win, so section 2 reads none of it; a
loser's draws (its highest pair, four to a flush, four to a straight, the JOKER) are read the same way, each
value a group of its own (a pair of tens or the JOKER is too rare a value for 1j's groups of n / 20).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from audit.stats.boards import SEQUENCES, board_features
from audit.stats.styles.kinds import Get

__all__ = ["spread_columns", "spread_features"]


def _match_n(area: dict[str, Any], play: dict[str, Any], get: Get) -> list[tuple[str, np.ndarray]]:
    aid, codes = area["id"], [p["code"] for p in area["prizes"]]
    spots = np.stack([get(f"{aid}_spot_{j}").astype(np.int64) for j in range(area["spots"])], axis=1)
    counts = [(spots == i).sum(axis=1) for i in range(len(codes))]  # a multiplier's code counts as none
    found = [(f"{aid}: the spots showing {code} (counted)", c) for code, c in zip(codes, counts, strict=True)]
    twice = np.sum([c >= 2 for c in counts], axis=0).astype(np.int64)
    return [*found, (f"{aid}: the prize symbols shown twice or more (counted)", twice)]


def _key_number_match(area: dict[str, Any], play: dict[str, Any], get: Get) -> list[tuple[str, np.ndarray]]:
    """The YOUR NUMBERS one off a WINNING NUMBER (a code one above or below one of the WINNING NUMBERS' codes:
    the next number in the area's `numbers`), counted; the area's own WINNING NUMBERS or those of the area
    it takes them from (`winning_from`). None for an area of special symbols (no YOUR NUMBERS as columns)."""
    aid, source = area["id"], area.get("winning_from", area["id"])
    if area.get("specials") or not area["yours"]:
        return []
    owner = next(a for a in play["areas"] if isinstance(a, dict) and a.get("id") == source)
    if "winning_from" in owner or not owner["winning"]:
        return []
    win = [get(f"{source}_win_{i}").astype(np.int64) for i in range(owner["winning"])]
    near = np.zeros(len(win[0]), dtype=np.int64)
    for i in range(area["yours"]):
        yours = get(f"{aid}_your_{i}").astype(np.int64)
        near += np.logical_or.reduce([np.abs(yours - w) == 1 for w in win])
    return [(f"{aid}: the YOUR NUMBERS one off a WINNING NUMBER (counted)", near)]


JOKER = 52  # the poker_hand style's code of the JOKER (docs/styles/poker_hand.md section 4)
BITS = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)  # ranks in a 13-bit set


def _draws(cards: np.ndarray, what: str) -> list[tuple[str, np.ndarray]]:
    """The draws of `cards` (a card a row, the rows' columns the tickets: numpy reduces over a few rows
    fast, over short columns slowly), a code outside 0..51 no card of a rank or suit: the highest rank shown
    twice or more (0 none, 1 + the rank's index, 2 = 0 .. A = 12), four or more cards of one suit, four or
    more ranks within one sequence (the ace low in A-2-3-4-5 too)."""
    plain = (cards >= 0) & (cards < JOKER)
    rank = np.sort(np.where(plain, cards // 4, -1), axis=0)
    paired = np.zeros(cards.shape[1], dtype=np.int64)
    for i in range(1, len(cards)):
        paired = np.maximum(paired, np.where((rank[i] == rank[i - 1]) & (rank[i] >= 0), rank[i] + 1, 0))
    suit = np.where(plain, cards % 4, -1)
    suited = np.max([(suit == s).sum(axis=0) for s in range(4)], axis=0)
    shown = np.bitwise_or.reduce(np.where(rank >= 0, np.left_shift(1, np.maximum(rank, 0)), 0), axis=0)
    within = np.max([BITS[shown & m] for m in SEQUENCES], axis=0)
    return [(f"{what}: the highest rank shown twice or more (a hand's pair)", paired.astype(np.int64)),
            (f"{what}: four or more cards of one suit (a hand's draw to a flush)",
             (suited >= 4).astype(np.int64)),
            (f"{what}: four or more ranks within one sequence (a hand's draw to a straight)",
             (within >= 4).astype(np.int64))]


def _poker_hand(area: dict[str, Any], play: dict[str, Any], get: Get) -> list[tuple[str, np.ndarray]]:
    """The hand's draws, and with `joker` the JOKER shown (the JOKER no card of a rank or suit)."""
    aid = area["id"]
    cards = np.stack([get(f"{aid}_card_{i}").astype(np.int64) for i in range(5)])
    found = _draws(cards, aid)
    if area.get("joker") is True:
        found.append((f"{aid}: the JOKER shown", (cards == JOKER).any(axis=0).astype(np.int64)))
    return found


def _cards(area: dict[str, Any], play: dict[str, Any], get: Get) -> list[tuple[str, np.ndarray]]:
    """Each game's YOUR cards' draws: YOUR 5 cards (`deal` "five"), or YOUR 2 with the game's 5 COMMUNITY
    cards (`"hold_em"`: the seven YOUR hand is made from); then, with `dealer` "shared", the DEALER'S
    hand's."""
    aid, games, hold_em = area["id"], int(area["games"]), area.get("deal", "five") == "hold_em"
    found: list[tuple[str, np.ndarray]] = []
    for g in range(games):
        names = [f"{aid}_yours_{2 * g}", f"{aid}_yours_{2 * g + 1}",
                 *[f"{aid}_community_{5 * g + j}" for j in range(5)]] if hold_em else \
            [f"{aid}_yours_{5 * g + j}" for j in range(5)]
        what = f"{aid}: game {g}, " + ("YOUR 2 and the COMMUNITY cards" if hold_em else "YOUR hand")
        found += _draws(np.stack([get(c).astype(np.int64) for c in names]), what)
    if area.get("dealer", "each") == "shared":  # the one DEALER'S HAND, after the games' (cards.md 9)
        found += _draws(np.stack([get(f"{aid}_dealer_{j}").astype(np.int64) for j in range(5)]),
                        f"{aid}: the DEALER'S hand")
    return found


_STYLES = {"match_n": _match_n, "key_number_match": _key_number_match, "poker_hand": _poker_hand,
           "cards": _cards}
EACH_VALUE = frozenset({"poker_hand", "cards"})  # styles whose features are tested with each value a group


def spread_columns(play: dict[str, Any]) -> list[str]:
    """The columns of the areas whose features only this module reads (a poker_hand area's cards, a maze
    area's cells)."""
    found: list[str] = []
    for a in play.get("areas", []):
        if not isinstance(a, dict) or not isinstance(a.get("id"), str):
            continue
        if a.get("style") == "poker_hand":
            found += [f"{a['id']}_card_{i}" for i in range(5)]
        elif a.get("style") == "maze" and type(a.get("rows")) is int and type(a.get("cols")) is int:
            found += [f"{a['id']}_cell_{k}" for k in range(max(0, a["rows"] * a["cols"]))]
    return found


def spread_features(play: dict[str, Any], get: Get, *,
                    each_value: bool = False) -> list[tuple[str, np.ndarray]]:
    """Each match_n area's counts and each key_number_match area's near misses (section 1l), in the play
    entry's area order, then each cards area's hand categories and each maze area's paths (boards.py); with
    `each_value`, each poker_hand and cards area's draws instead, then each cards area's DEALER'S and
    COMMUNITY cards' draws (1l: tested with each value a group of its own). An area the features cannot
    read (which section 2's features report) gives none."""
    found: list[tuple[str, np.ndarray]] = []
    for area in play.get("areas", []):
        if isinstance(area, dict) and area.get("style") in _STYLES and \
                (area.get("style") in EACH_VALUE) == each_value:
            try:
                found += _STYLES[area["style"]](area, play, get)
            except (KeyError, TypeError, ValueError, StopIteration):
                continue
    return found + board_features(play, get, _draws if each_value else None)
