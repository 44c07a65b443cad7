"""What each game's layout contract promises carries no information about winning (specs/<game>.md,
or for an eInstant of a generic style docs/styles/<style>.md),
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

DUEL_LOSE = 1  # the prize_legend_duel style's outcome code of a loss (docs/styles/prize_legend_duel.md, 3)


@dataclass(frozen=True)
class LayoutFeatures:
    chi_square: list[tuple]  # (name, codes) or (name, codes, rows): tested on those rows only
    classifier_name: str
    classifier: list[list[np.ndarray]]


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


_GAMES: dict[str, tuple[tuple[str, ...], Callable[[Get], LayoutFeatures]]] = {
    "happy_holidays": (tuple(f"spot_{j}" for j in range(6)), _happy_holidays),
}


# eInstants of a generic style (the manifest's `play.style`): the columns and features the style's
# contract (docs/styles/<style>.md) promises carry no information, from the style's parameters `play`.
def _area_match(get: Get, play: dict) -> LayoutFeatures:
    """docs/styles/area_match.md section 6: a0_s0, the first spot shown, is drawn uniformly over the
    play entry's symbol codes for every share, before and independently of its tier (whatever the
    style's parameters: the test reads the code, not what it means)."""
    first = get("a0_s0")
    return LayoutFeatures([("a0_s0 (the first spot shown) against win/lose", first)],
                          "win/lose predicted from a0_s0", [[first]])


_STYLES: dict[str, tuple[Callable[[dict], tuple[str, ...]], Callable[[Get, dict], LayoutFeatures]]] = {
    "prize_legend_duel": (lambda play: ("spot_0",), _prize_legend_duel),
    "area_match": (lambda play: ("a0_s0",), _area_match),
}


def _style(play: dict | None) -> str | None:
    style = play.get("style") if isinstance(play, dict) else None
    return style if isinstance(style, str) else None


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


_AREA_STYLES = {"key_number_match": _key_number_match, "bonus_reveal": _bonus_reveal}


def _areas(play: dict | None) -> list[dict]:
    """The areas of a play-style run that have an entry here (none for a format-1 run)."""
    areas = play.get("areas") if isinstance(play, dict) else None
    if not isinstance(areas, list):
        return []
    return [a for a in areas if isinstance(a, dict) and a.get("style") in _AREA_STYLES]


def _styled(play: dict, get: Get) -> LayoutFeatures | None:
    tests, blocks, named = [], [], []
    for area in _areas(play):
        t, b, n = _AREA_STYLES[area["style"]](area, get)
        tests, blocks, named = tests + t, blocks + b, named + n
    if not tests:
        return None
    return LayoutFeatures(tests, "win/lose predicted from " + (" and ".join(named) or "nothing"), blocks)


def layout_columns(rules: str, play: dict | None = None) -> tuple[str, ...]:
    """The layout columns the game's no-information tests read (none for an unknown game). A run of
    an eInstant style (`play.style`) is keyed by its style, one of area styles (`play.areas`) by its
    areas' styles, each with parameters from `play`."""
    style = _style(play)
    if style is not None:
        return _STYLES[style][0](play) if style in _STYLES else ()  # type: ignore[arg-type]
    if _areas(play):
        return tuple(c for a in _areas(play) for c in _AREA_STYLES[a["style"]](a, None))
    return _GAMES[rules][0] if rules in _GAMES else ()


def layout_features(rules: str, get: Get, play: dict | None = None) -> LayoutFeatures | None:
    """The game's (or its styles') no-information features from its columns (`get(name)`), or None
    if there is no entry here."""
    style = _style(play)
    if style is not None:
        return _STYLES[style][1](get, play) if style in _STYLES else None  # type: ignore[arg-type]
    if _areas(play):
        return _styled(play, get)  # type: ignore[arg-type]
    return _GAMES[rules][1](get) if rules in _GAMES else None
