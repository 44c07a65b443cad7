"""What each game's layout contract promises carries no information about winning (specs/<game>.md),
as features for step 8's chi-square tests of independence and its classifier test.

A printed ticket shows nothing of its play area before it is scratched (the latex covers every
spot; what is printed outside it, the ticket id and book, is the position, which step 8's position
and per-book tests cover). So for printed games the tests are the no-information properties the
contract states for what one scratched spot shows (section 6 of happy_holidays.md; section 8 of a
style's contract, docs/styles/<style>.md, for a game of play styles).
eInstants: what the player sees before the outcome is decided, as the contract names it.

Each game is a function from the pool's columns to (features for chi-square, classifier blocks).
A feature is (name, codes); a classifier block is a list of code columns sharing one code space
(encoded one-hot, or multi-hot for a set such as a key number match's WINNING NUMBERS). Look a game
up with `layout_features(rules)`; a game without an entry gets no layout tests (step 8 says so).
A game of play styles (a manifest `play` entry with `areas`) is looked up by its areas' styles
instead: each style states its no-information features in docs/styles/<style>.md, section 8.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["LayoutFeatures", "layout_columns", "layout_features"]

Get = Callable[[str], np.ndarray]

LOSE = 1  # Hand to Hand Tactics' outcome code of a loss (hand_to_hand_tactics.md, section 2)


@dataclass(frozen=True)
class LayoutFeatures:
    chi_square: list[tuple]  # (name, codes) or (name, codes, rows): tested on those rows only
    classifier_name: str
    classifier: list[list[np.ndarray]]


def _primetime_payout(get: Get) -> LayoutFeatures:
    """primetime_payout.md section 7.1: a0_s0, the first spot shown, is drawn uniformly for every
    share before and independently of its tier."""
    first = get("a0_s0")
    return LayoutFeatures([("a0_s0 (the first spot shown) against win/lose", first)],
                          "win/lose predicted from a0_s0", [[first]])


def _hand_to_hand_tactics(get: Get) -> LayoutFeatures:
    """hand_to_hand_tactics.md section 6.1: whether spot 0 (the first reveal) is a loss is drawn
    the same way for winners and losers. (What else spot 0 shows is not promised: a non-loss spot 0
    is a Multiplier more often on losers, which the contract states.)"""
    first_loss = (get("spot_0") == LOSE).astype(np.int64)
    return LayoutFeatures([("first reveal (spot_0) a loss, against win/lose", first_loss)],
                          "win/lose predicted from whether spot_0 is a loss", [[first_loss]])


def _happy_holidays(get: Get) -> LayoutFeatures:
    """happy_holidays.md section 6: the number of distinct symbols (3 or 4) and the symbol of any
    one spot (spot_0) are independent of win/lose."""
    spots = [get(f"spot_{j}").astype(np.int64) for j in range(6)]
    mask = np.zeros(len(spots[0]), dtype=np.int64)
    for s in spots:
        mask |= np.left_shift(1, s)
    distinct = np.zeros_like(mask)
    for bit in range(int(mask.max()).bit_length() if len(mask) else 0):
        distinct += (mask >> bit) & 1
    return LayoutFeatures([("number of distinct symbols against win/lose", distinct),
                           ("spot_0 (one scratched spot) against win/lose", spots[0])],
                          "win/lose predicted from spot_0", [[spots[0]]])


_GAMES: dict[str, tuple[tuple[str, ...], Callable[[Get], LayoutFeatures]]] = {
    "primetime_payout": (("a0_s0",), _primetime_payout),
    "hand_to_hand_tactics": (("spot_0",), _hand_to_hand_tactics),
    "happy_holidays": (tuple(f"spot_{j}" for j in range(6)), _happy_holidays),
}


def _key_number_match(area: dict, get: Get | None):
    """key_number_match.md section 8.3: an area's WINNING NUMBERS (the first, the smallest, the set);
    without special symbols, YOUR NUMBER 0; with decoy weights, the prize below YOUR NUMBER 0."""
    aid, own = area["id"], "winning_from" not in area
    cols = ([f"{aid}_win_{i}" for i in range(area["winning"])] if own else []) + (
        [f"{aid}_your_0"] if not area.get("specials") else []) + (
        [f"{aid}_prize_0"] if area.get("decoy_weights") else [])
    if get is None:
        return cols
    tests, blocks, named = [], [], []
    if own:
        win = [get(f"{aid}_win_{i}").astype(np.int64) for i in range(area["winning"])]
        tests += [(f"{aid}_win_0 (a WINNING NUMBER) against win/lose", win[0]),
                  (f"smallest WINNING NUMBER of {aid} against win/lose", np.minimum.reduce(win))]
        blocks.append(win)
        named.append(f"the set of WINNING NUMBERS of area {aid}")
    if f"{aid}_your_0" in cols:
        tests.append((f"{aid}_your_0 (a YOUR NUMBER) against win/lose", get(f"{aid}_your_0")))
    if f"{aid}_prize_0" in cols:
        tests.append((f"{aid}_prize_0 (a prize symbol) against win/lose", get(f"{aid}_prize_0")))
    return tests, blocks, named


def _bonus_reveal(area: dict, get: Get | None):
    """bonus_reveal.md section 8: on tickets that reveal no amount in the area, the picture of
    spot 0 is drawn the same way for winners and losers."""
    aid, spots = area["id"], area["spots"]
    cols = [f"{aid}_spot_{j}" for j in range(spots)]
    if get is None:
        return cols
    codes = [get(c).astype(np.int64) for c in cols]
    none_won = np.logical_and.reduce([c < len(area["pictures"]) for c in codes])
    return [(f"{aid}_spot_0 (a picture) on tickets revealing no amount there, against win/lose",
             codes[0], none_won)], [], []


_STYLES = {"key_number_match": _key_number_match, "bonus_reveal": _bonus_reveal}


def _areas(play: dict | None) -> list[dict]:
    """The areas of a play-style run that have an entry here (none for a format-1 run)."""
    areas = play.get("areas") if isinstance(play, dict) else None
    if not isinstance(areas, list):
        return []
    return [a for a in areas if isinstance(a, dict) and a.get("style") in _STYLES]


def _styled(play: dict, get: Get) -> LayoutFeatures | None:
    tests, blocks, named = [], [], []
    for area in _areas(play):
        t, b, n = _STYLES[area["style"]](area, get)
        tests, blocks, named = tests + t, blocks + b, named + n
    if not tests:
        return None
    return LayoutFeatures(tests, "win/lose predicted from " + (" and ".join(named) or "nothing"), blocks)


def layout_columns(rules: str, play: dict | None = None) -> tuple[str, ...]:
    """The layout columns the game's no-information tests read (none for an unknown game)."""
    if _areas(play):
        return tuple(c for a in _areas(play) for c in _STYLES[a["style"]](a, None))
    return _GAMES[rules][0] if rules in _GAMES else ()


def layout_features(rules: str, get: Get, play: dict | None = None) -> LayoutFeatures | None:
    """The game's no-information features from its columns (`get(name)`), or None if the game has
    no entry here (nor any of its areas' styles)."""
    if _areas(play):
        return _styled(play, get)
    return _GAMES[rules][1](get) if rules in _GAMES else None
