"""What each game's layout contract promises carries no information about winning (specs/<game>.md,
or for an eInstant of a generic style docs/styles/<style>.md),
as features for step 8's chi-square tests of independence and its classifier test.

A printed ticket shows nothing of its play area before it is scratched (the latex covers every
spot; what is printed outside it, the ticket id and book, is the position, which step 8's position
and per-book tests cover). So for printed games the tests are the no-information properties the
contract states for what one scratched spot shows (section 6 of wild_side.md and happy_holidays.md).
eInstants: what the player sees before the outcome is decided, as the contract names it.

Each game is a function from the pool's columns to (features for chi-square, classifier blocks).
A feature is (name, codes); a classifier block is a list of code columns sharing one code space
(encoded one-hot, or multi-hot for a set such as Wild Side's five LUCKY NUMBERS). Look a game up
with `layout_features(rules, get, play)`: a run of an eInstant style (its manifest's `play` names the
style) by its style, with the parameters of `play`; a game without an entry gets no layout tests
(step 8 says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["LayoutFeatures", "layout_columns", "layout_features"]

Get = Callable[[str], np.ndarray]

DUEL_LOSE = 1  # the prize_legend_duel style's outcome code of a loss (docs/styles/prize_legend_duel.md, 3)


@dataclass(frozen=True)
class LayoutFeatures:
    chi_square: list[tuple[str, np.ndarray]]
    classifier_name: str
    classifier: list[list[np.ndarray]]


def _primetime_payout(get: Get) -> LayoutFeatures:
    """primetime_payout.md section 7.1: a0_s0, the first spot shown, is drawn uniformly for every
    share before and independently of its tier."""
    first = get("a0_s0")
    return LayoutFeatures([("a0_s0 (the first spot shown) against win/lose", first)],
                          "win/lose predicted from a0_s0", [[first]])


def _prize_legend_duel(get: Get, play: dict) -> LayoutFeatures:
    """docs/styles/prize_legend_duel.md section 8: whether spot 0 (the first reveal) is a loss is drawn
    the same way for winners and losers, with probability play.first_spot_loss. (What else spot 0
    shows is not promised: a non-loss spot 0 is a multiplier more often on losers.)"""
    rule = play.get("first_spot_loss")
    first_loss = (get("spot_0") == DUEL_LOSE).astype(np.int64)
    return LayoutFeatures([(f"first reveal (spot_0) a loss (drawn {rule} for every share), against win/lose",
                            first_loss)],
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
    "happy_holidays": (tuple(f"spot_{j}" for j in range(6)), _happy_holidays),
    "wild_side": ((*(f"lucky_{j}" for j in range(5)), "your_0", "wild_0", "your_prize_0", "wild_prize_0"),
                  _wild_side),
}


# eInstant styles (the manifest's `play.style`): (columns, features), each from the play entry.
_STYLES: dict[str, tuple[Callable[[dict], tuple[str, ...]], Callable[[Get, dict], LayoutFeatures]]] = {
    "prize_legend_duel": (lambda play: ("spot_0",), _prize_legend_duel),
}


def _style(play: dict | None) -> str | None:
    style = play.get("style") if isinstance(play, dict) else None
    return style if isinstance(style, str) else None


def layout_columns(rules: str, play: dict | None = None) -> tuple[str, ...]:
    """The layout columns the game's no-information tests read (none for an unknown game). A run
    of an eInstant style (`play` names it) is keyed by its style, with parameters from `play`."""
    style = _style(play)
    if style is not None:
        return _STYLES[style][0](play) if style in _STYLES else ()  # type: ignore[arg-type]
    return _GAMES[rules][0] if rules in _GAMES else ()


def layout_features(rules: str, get: Get, play: dict | None = None) -> LayoutFeatures | None:
    """The game's (or its eInstant style's) no-information features from its columns (`get(name)`),
    or None if there is no entry here."""
    style = _style(play)
    if style is not None:
        return _STYLES[style][1](get, play) if style in _STYLES else None  # type: ignore[arg-type]
    return _GAMES[rules][1](get) if rules in _GAMES else None
