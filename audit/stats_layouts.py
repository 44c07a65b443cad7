"""What each game's layout contract promises carries no information about winning (specs/<game>.md),
as features for step 8's chi-square tests of independence and its classifier test.

A printed ticket shows nothing of its play area before it is scratched (the latex covers every
spot; what is printed outside it, the ticket id and book, is the position, which step 8's position
and per-book tests cover). So for printed games the tests are the no-information properties the
contract states for what one scratched spot shows (section 6 of wild_side.md; for a game of play
styles, its styles' contracts, docs/styles/<style>.md: audit/stats_styles.py).
eInstants: what the player sees before the outcome is decided, as the contract names it.

Each format-1 game is a function from the pool's columns to (features for chi-square, classifier blocks).
A feature is (name, codes); a classifier block is a list of code columns sharing one code space
(encoded one-hot, or multi-hot for a set such as Wild Side's five LUCKY NUMBERS). Look a game up
with `layout_features(rules)`; a game without an entry gets no layout tests (step 8 says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from audit.stats_styles import style_columns, style_features

__all__ = ["LayoutFeatures", "layout_columns", "layout_features"]

Get = Callable[[str], np.ndarray]

LOSE = 1  # Hand to Hand Tactics' outcome code of a loss (hand_to_hand_tactics.md, section 2)


@dataclass(frozen=True)
class LayoutFeatures:
    chi_square: list[tuple[str, np.ndarray]]  # a code below 0 leaves its row out of that test
    classifier_name: str
    classifier: list[list[np.ndarray]]  # empty: no classifier; rows with a code below 0 left out
    not_tested: tuple[str, ...] = ()


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


def _wild_side(get: Get) -> LayoutFeatures:
    """wild_side.md section 6: the LUCKY NUMBERS (lucky_0, the smallest), any single number spot
    (your_0, wild_0) and any single prize symbol (your_prize_0, wild_prize_0) are independent of
    win/lose; the five LUCKY NUMBERS as a set carry no information either (drawn apart from the
    tier), which the classifier tests."""
    lucky = [get(f"lucky_{j}").astype(np.int64) for j in range(5)]
    smallest = np.minimum.reduce(lucky)
    return LayoutFeatures(
        [("lucky_0 against win/lose", lucky[0]),
         ("smallest LUCKY NUMBER against win/lose", smallest),
         ("your_0 (a YOUR NUMBER) against win/lose", get("your_0")),
         ("wild_0 (a YOUR WILD NUMBER) against win/lose", get("wild_0")),
         ("your_prize_0 (a prize symbol) against win/lose", get("your_prize_0")),
         ("wild_prize_0 (a prize symbol) against win/lose", get("wild_prize_0"))],
        "win/lose predicted from the set of five LUCKY NUMBERS", [lucky])


_GAMES: dict[str, tuple[tuple[str, ...], Callable[[Get], LayoutFeatures]]] = {
    "primetime_payout": (("a0_s0",), _primetime_payout),
    "hand_to_hand_tactics": (("spot_0",), _hand_to_hand_tactics),
    "wild_side": ((*(f"lucky_{j}" for j in range(5)), "your_0", "wild_0", "your_prize_0", "wild_prize_0"),
                  _wild_side),
}


def _is_styled(play: dict | None) -> bool:
    return isinstance(play, dict) and isinstance(play.get("areas"), list)


def layout_columns(rules: str, play: dict | None = None) -> tuple[str, ...]:
    """The layout columns the game's no-information tests read (none for an unknown game). A run of
    play styles (its manifest's `play` entry has areas) is keyed by its areas' styles."""
    if _is_styled(play):
        return style_columns(play)
    return _GAMES[rules][0] if rules in _GAMES else ()


def layout_features(rules: str, get: Get, play: dict | None = None,
                    counts: dict[str, int] | None = None) -> LayoutFeatures | None:
    """The game's no-information features from its columns (`get(name)`), or None if the game has
    no entry here. A run of play styles: its areas' features (audit/stats_styles.py), from the play
    entry and the pool's tier counts (`counts`, tier id -> tickets)."""
    if _is_styled(play):
        chi, block, skipped = style_features(play, counts or {}, get)
        name = f"win/lose predicted from {block[0]}_spot_0" if block else ""
        return LayoutFeatures(chi, name, [[block[1]]] if block else [], tuple(skipped))
    return _GAMES[rules][1](get) if rules in _GAMES else None
