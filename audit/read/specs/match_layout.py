"""An `area_match` spec's [play] and [layout], refused at read as poolgen's loader refuses them, naming
the same field: written from docs/styles/area_match.md, section 2 (the table of spec fields and the
rules below it): every symbol of group "play"; `spots_per_area` S of 4, 5 or 6; `wild` and `bonus_key`
(not the wild) spec codes; 1 to 8 bonus games, each a `name`, a `symbol` (a code, not the wild, the
key or another game's) and `chances` 1..8 or a `grid` of 1 to 255 sections of 1..255 prizes;
`match_pays` exactly [{count = S - 1, times}, {count = S, times}], times 1..255; `amount_multipliers`
a non-empty list of decimal strings, positive multiples of 0.5, no repeats; `max_decompositions`
1..10,000,000."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_misshapen_match"]


def _whole(value: object, lo: int, hi: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and lo <= value <= hi


def _code(layout: dict[str, Any], key: str, codes: list[str], where: str) -> str:
    value = layout.get(key)
    if value is None:
        why = {"layout.wild": " (an area_match game has a wild)",
               "layout.bonus_key": " (an area_match game has a bonus key and 1 to 8 bonus games)"}
        raise UnusableInput(f"{where}: missing field: the spec code of one of the [[symbols]]"
                            f"{why.get(where, '')}")
    if not isinstance(value, str) or value not in codes:
        raise UnusableInput(f"{where}: must be the code of one of the [[symbols]], not {value!r}")
    return value


def _games(layout: dict[str, Any], codes: list[str], taken: set[str]) -> None:
    games = layout.get("bonus_games")
    if not isinstance(games, list) or not 1 <= len(games) <= 8:
        raise UnusableInput("layout.bonus_games: must be 1 to 8 [[layout.bonus_games]] tables")
    for j, game in enumerate(games):
        where = f"layout.bonus_games[{j}]"
        if not isinstance(game, dict):
            raise UnusableInput(f"{where}: must be a table")
        name = game.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 40:
            raise UnusableInput(f"{where}.name: must be the game's name (1 to 40 characters), not {name!r}")
        if ("chances" in game) == ("grid" in game):
            raise UnusableInput(f"{where}: must have either chances (a game of chances) or grid (sections)")
        if "chances" in game and not _whole(game["chances"], 1, 8):
            raise UnusableInput(f"{where}.chances: must be a whole number 1..8, not {game['chances']!r}")
        grid = game.get("grid", [1])
        if not isinstance(grid, list) or not 1 <= len(grid) <= 255 or \
                not all(_whole(g, 1, 255) for g in grid):
            raise UnusableInput(f"{where}.grid: must list 1 to 255 sections' numbers of prizes, each 1..255")
        symbol = _code(game, "symbol", codes, f"{where}.symbol")
        if symbol in taken:
            raise UnusableInput(f"{where}.symbol: {symbol!r} is already the wild, the key or another game's")
        taken.add(symbol)


def _amounts(layout: dict[str, Any]) -> None:
    listed = layout.get("amount_multipliers")
    if not isinstance(listed, list) or not listed:
        raise UnusableInput("layout.amount_multipliers: missing: a list of decimal strings such as \"0.5\"")
    seen = set()
    for j, text in enumerate(listed):
        where = f"layout.amount_multipliers[{j}]"
        if not isinstance(text, str):
            raise UnusableInput(f"{where}: must be a decimal string, not {text!r}")
        try:
            x = Decimal(text) if text.replace(".", "", 1).isdigit() and text.isascii() else None
        except InvalidOperation:
            x = None
        if x is None or x <= 0 or x * 2 != (x * 2).to_integral_value():
            raise UnusableInput(f"{where}: {text!r} must be a positive multiple of 0.5")
        if x in seen:
            raise UnusableInput("layout.amount_multipliers: a multiplier is listed twice")
        seen.add(x)


def refuse_misshapen_match(doc: dict[str, Any]) -> None:
    """UnusableInput naming the first area_match field section 2 refuses."""
    for j, s in enumerate(doc["symbols"]):
        if s["group"] != "play":
            raise UnusableInput(f"symbols[{j}].group: the area_match style has play symbols only, not "
                                f"{s['group']!r}")
    codes = [s["code"] for s in doc["symbols"]]
    play, layout = doc.get("play", {}), doc.get("layout", {})
    spots = play.get("spots_per_area")
    if not _whole(spots, 4, 6):
        raise UnusableInput(f"play.spots_per_area: must be 4, 5 or 6, not {spots!r} (with fewer a losing "
                            "area cannot show the wild with another symbol, and no match leaves a spot for "
                            "the first symbol shown)")
    wild = _code(layout, "wild", codes, "layout.wild")
    key = _code(layout, "bonus_key", codes, "layout.bonus_key")
    if key == wild:
        raise UnusableInput("layout.bonus_key: must not be the wild symbol")
    _games(layout, codes, {wild, key})
    pays = layout.get("match_pays")
    if not isinstance(pays, list) or [m.get("count") if isinstance(m, dict) else None for m in pays] \
            != [spots - 1, spots]:
        raise UnusableInput(f"layout.match_pays: must be [{{count = {spots - 1}, times = ...}}, "
                            f"{{count = {spots}, times = ...}}] (spots_per_area - 1 and spots_per_area like "
                            f"symbols win), not {pays!r}")
    for j, m in enumerate(pays):
        if set(m) != {"count", "times"}:
            raise UnusableInput(f"layout.match_pays[{j}]: has exactly count and times, not {sorted(m)}")
        if not _whole(m["times"], 1, 255):
            raise UnusableInput(f"layout.match_pays[{j}].times: must be a whole number 1..255, not "
                                f"{m['times']!r}")
    if not _whole(layout.get("max_decompositions"), 1, 10_000_000):
        raise UnusableInput(f"layout.max_decompositions: must be a whole number 1..10,000,000, not "
                            f"{layout.get('max_decompositions')!r}")
    _amounts(layout)
