"""A keno area's fields (docs/styles/keno.md, section 2), refused as poolgen's loader refuses them,
naming the same field in the same words: the numbers (2 .. 255), W WINNING NUMBERS (1 .. n-1), the
games (1 .. 10, each of 1 .. min(20, n) numbers) and the key ({ spots, matches, prize } lines: a size a
game has, a count the area can show, one line a (spots, matches), a prize of `prizes`); every game size
with a line and a count that loses. A key line no tier wins is audit/read/specs/unused.py's."""

from __future__ import annotations

from math import comb
from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_unfit_keno"]


def _whole(value: object, at: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UnusableInput(f"{at}: must be a whole number, not {value!r}")
    if value < low:
        raise UnusableInput(f"{at}: must be at least {low}, got {value}")
    if value > high:
        raise UnusableInput(f"{at}: must be at most {high}, got {value}")
    return value


def refuse_unfit_keno(area: dict[str, Any], where: str, numbers: int, prizes: list[str]) -> None:
    """UnusableInput naming the first field of the keno `area` section 2 refuses (`numbers`: how many
    symbols its numbers group holds; `prizes`: its prize group's codes)."""
    if numbers > 255:
        raise UnusableInput(f"{where}.numbers: more than 255 numbers do not fit a uint8 code")
    if numbers < 2:
        raise UnusableInput(f"{where}.numbers: at least 2 numbers: one winning, one not")
    w = _whole(area["winning"], f"{where}.winning", 1, numbers - 1)
    games = area["games"]
    if not 1 <= len(games) <= 10:
        raise UnusableInput(f"{where}.games: 1 to 10 games, not {len(games)}")
    for g, k in enumerate(games):
        if type(k) is not int or not 1 <= k <= min(20, numbers):
            raise UnusableInput(f"{where}.games[{g}]: a game's numbers: a whole number 1 .. "
                                f"{min(20, numbers)}, not {k!r}")
    pays: dict[tuple[int, int], str] = {}
    for i, line in enumerate(area["key"]):
        at = f"{where}.key[{i}]"
        if not isinstance(line, dict):
            raise UnusableInput(f"{at}: must be a table {{ spots, matches, prize }}")
        for name in line:
            if name not in ("spots", "matches", "prize"):
                raise UnusableInput(f"{at}.{name}: unknown field")
        if "spots" not in line:
            raise UnusableInput(f"{at}.spots: missing field")
        spots = _whole(line["spots"], f"{at}.spots", 1, 20)
        if spots not in games:
            raise UnusableInput(f"{at}.spots: not used: no game has {spots} numbers")
        if "matches" not in line:
            raise UnusableInput(f"{at}.matches: missing field")
        m = _whole(line["matches"], f"{at}.matches", 0, spots)
        if m > w or spots - m > numbers - w:
            raise UnusableInput(f"{at}.matches: {m} matches of {spots} numbers cannot be shown with {w} "
                                f"WINNING NUMBERS of {numbers}")
        if (spots, m) in pays:
            raise UnusableInput(f"{at}.matches: the key already pays {m} matches of {spots} numbers")
        if "prize" not in line:
            raise UnusableInput(f"{at}.prize: missing field")
        if not isinstance(line["prize"], str):
            raise UnusableInput(f"{at}.prize: must be a string, not {line['prize']!r}")
        if line["prize"] not in prizes:
            raise UnusableInput(f"{at}.prize: not one of the area's prize symbols")
        pays[(spots, m)] = line["prize"]
    for g, k in enumerate(games):
        if not any(s == k for s, _ in pays):
            raise UnusableInput(f"{where}.games[{g}]: the key lists no prize for a game of {k} numbers")
        if not any(comb(w, m) * comb(numbers - w, k - m) for m in range(k + 1) if (k, m) not in pays):
            raise UnusableInput(f"{where}.games[{g}]: every number of matches a game of {k} numbers can show "
                                "wins: it could never lose")
