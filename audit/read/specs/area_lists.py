"""The lists and small tables inside an area that its style's contract (docs/styles/<style>.md, section 2)
shapes, refused when the spec is read as poolgen's loader refuses them, naming the same field: a
symbol_count or crossword legend (`{ count, prize }`, `{ words, prize }`: counts increasing from 1,
each prize a different symbol of the area's `prizes`), a crossword's `legends` (one a grid, no prize in
two), `bonus` (`{ length, prize }`) and `doubler` (`{ by = 2..10, free }`), bingo's `patterns` (a
catalogue shape or a named pattern, each prize once and by increasing value), a maze's `exits`
(`{ side, at, prize }`, each once), and add_up's `target`. What a style proves by search (a legend count
no placement gives, a target no game reaches) is left to `check` and step 4."""

from __future__ import annotations

import re
from typing import Any

from audit.errors import UnusableInput
from audit.read.specs.grids import grid_words, refuse_unfit_counts
from audit.read.specs.money import money, sign_of

__all__ = ["refuse_unshaped_lists"]

# docs/styles/bingo.md, section 1: the catalogue shapes, their cell sets (cell k: row k // 5, column k % 5)
_LINES = [{r * 5 + c for c in range(5)} for r in range(5)] \
    + [{r * 5 + c for r in range(5)} for c in range(5)] + [{0, 6, 12, 18, 24}, {4, 8, 12, 16, 20}]
_SHAPES: dict[str, list[set[int]]] = {
    "line": _LINES, "corners": [{0, 4, 20, 24}], "x": [_LINES[10] | _LINES[11]], "full": [set(range(25))],
    "postage_stamp": [{0, 1, 5, 6}, {3, 4, 8, 9}, {15, 16, 20, 21}, {18, 19, 23, 24}],
    "frame": [{k for k in range(25) if k // 5 in (0, 4) or k % 5 in (0, 4)}],
    "two_lines": [a | b for i, a in enumerate(_LINES) for b in _LINES[i + 1:]]}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 '-]{0,23}")  # docs/styles/bingo.md, section 2
_SIDES = ("top", "right", "bottom", "left")  # docs/styles/maze.md 2
_COLOURS = ("black", "red", "blue", "green", "purple", "orange", "gold")  # docs/styles/crossword.md 2


def _fail(field: str, why: str) -> UnusableInput:
    return UnusableInput(f"{field}: {why}")


def _whole(table: dict[str, Any], key: str, at: str, lo: int, hi: int | None = None) -> int:
    if key not in table:
        raise _fail(f"{at}.{key}", "missing field")
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{at}.{key}", f"must be a whole number, not {value!r}")
    if value < lo:
        raise _fail(f"{at}.{key}", f"must be at least {lo}, got {value}")
    if hi is not None and value > hi:
        raise _fail(f"{at}.{key}", f"must be at most {hi}, got {value}")
    return value


def _text(table: dict[str, Any], key: str, at: str) -> str:
    if key not in table:
        raise _fail(f"{at}.{key}", "missing field")
    value = table[key]
    if not isinstance(value, str):
        raise _fail(f"{at}.{key}", f"must be a string, not {value!r}")
    return value


def _list(area: dict[str, Any], key: str, where: str) -> list[Any]:
    if key not in area:
        raise _fail(f"{where}.{key}", "missing field")
    value = area[key]
    if not isinstance(value, list):
        raise _fail(f"{where}.{key}", f"must be a list, not {value!r}")
    return value


def _prizes(doc: dict[str, Any], area: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["code"]: s for s in doc["symbols"] if s.get("group") == area["prizes"]}


def _legend(items: object, at: str, count: str, hi: int | None, prizes: dict[str, Any],
            said: str) -> list[str]:
    """A legend of `{ <count>, prize }` lines (crossword's `words`, its prize read first; symbol_count's
    `count`, read first); its codes."""
    if not isinstance(items, list) or not items:
        raise _fail(at, f"list the prize of each number of {said}")
    codes: list[str] = []
    last = 0
    for i, item in enumerate(items):
        where = f"{at}[{i}]"
        if not isinstance(item, dict):
            raise _fail(where, f"must be a table {{ {count}, prize }}")
        n = _whole(item, count, where, 1, hi) if count == "count" else 0
        code = _text(item, "prize", where)
        if code not in prizes:
            raise _fail(f"{where}.prize", f"{code!r} is not one of the area's prize symbols")
        n = n or _whole(item, count, where, 1, hi)
        if n <= last:
            raise _fail(f"{where}.{count}", f"the legend lists numbers of {said} in increasing order")
        if code in codes:
            raise _fail(f"{where}.prize", f"prize {code!r} is already the legend's for another {count}")
        last = n
        codes.append(code)
    return codes


def _crossword(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    words = grid_words(area, where)
    colours = _list(area, "colours", where) if "colours" in area else []
    if colours and (len(colours) != len(area["grids"]) or any(c not in _COLOURS for c in colours)):
        raise _fail(f"{where}.colours", f"one colour per grid, each one of {', '.join(_COLOURS)}")
    prizes = _prizes(doc, area)
    if "legends" not in area:
        _legend(_list(area, "legend", where), f"{where}.legend", "words", None, prizes, "completed words")
    else:
        legends = _list(area, "legends", where)
        if len(legends) != len(area["grids"]):
            raise _fail(f"{where}.legends", f"one legend a grid: {len(area['grids'])} legends, not "
                                            f"{len(legends)}")
        seen: dict[str, int] = {}
        for g, legend in enumerate(legends):
            codes = _legend(legend, f"{where}.legends[{g}]", "words", None, prizes, "completed words")
            for i, code in enumerate(codes):
                if code in seen:
                    raise _fail(f"{where}.legends[{g}][{i}].prize",
                                f"prize {code!r} is grid {seen[code] + 1}'s legend's: a prize names its "
                                "grid, so no code is in two legends")
                seen[code] = g
    if "bonus" in area:
        bonus, at = area["bonus"], f"{where}.bonus"
        if not isinstance(bonus, dict):
            raise _fail(at, "must be a table { length, prize }")
        _whole(bonus, "length", at, 1)
        if _text(bonus, "prize", at) not in prizes:
            raise _fail(f"{at}.prize", f"{bonus['prize']!r} is not one of the area's prize symbols")
    if "doubler" in area:
        _doubler(area, where)
    refuse_unfit_counts(doc, area, where, words)


def _doubler(area: dict[str, Any], where: str) -> None:
    doubler, at = area["doubler"], f"{where}.doubler"
    if not isinstance(doubler, dict):
        raise _fail(at, "must be a table { by, free }")
    ks = doubler.get("by")
    if isinstance(ks, list) and "legends" in area:
        grids = len(area["grids"])
        if len(ks) != grids or any(type(k) is not int or not 2 <= k <= 10 for k in ks):
            raise _fail(f"{at}.by", f"one k a grid, each a whole number 2 to 10 ({grids} of them), not "
                                    f"{ks!r}")
    else:
        _whole(doubler, "by", at, 2, 10)
    if "free" in doubler and not isinstance(doubler["free"], bool):
        raise _fail(f"{at}.free", "true (the cell is a free space) or false (a marked letter)")


def _cells(item: dict[str, Any], at: str) -> list[set[int]]:
    """A named pattern's `cells`: 1 to 256 non-empty sets of distinct cells 0..24, no set twice."""
    raw = item.get("cells")
    if raw is None:
        raise _fail(f"{at}.cells", "missing field")
    if not isinstance(raw, list) or not 1 <= len(raw) <= 256:
        raise _fail(f"{at}.cells", "a list of 1 to 256 cell sets (lists of cells 0..24)")
    sets: list[set[int]] = []
    for j, cells in enumerate(raw):
        where = f"{at}.cells[{j}]"
        if not isinstance(cells, list) or not cells:
            raise _fail(where, "an empty cell set: list one or more cells 0..24")
        for v in cells:
            if type(v) is not int or not 0 <= v <= 24:
                raise _fail(where, f"{v!r} is not a cell 0..24 (row k // 5, column k % 5)")
        if len(set(cells)) != len(cells):
            raise _fail(where, "a cell listed twice")
        if set(cells) in sets:
            raise _fail(where, f"the same cells as cells[{sets.index(set(cells))}]")
        sets.append(set(cells))
    return sets


def _bingo(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    numbers = [s.get("code") for s in doc["symbols"] if s.get("group") == area["numbers"]]
    if len(numbers) != 75 + area["free"] or numbers[:75] != [str(v) for v in range(1, 76)]:
        raise _fail(f"{where}.numbers", "the symbols of the numbers 1 to 75 (codes \"1\" .. \"75\", in order)"
                                        + (", then the FREE centre" if area["free"] else ""))
    prizes = _prizes(doc, area)
    names: list[str] = []
    paid: list[str] = []
    drawn: list[tuple[str, list[set[int]]]] = []
    last = -1
    for i, item in enumerate(area["patterns"]):
        at = f"{where}.patterns[{i}]"
        custom = isinstance(item, dict) and bool({"name", "cells"} & set(item))
        keys = {"name", "cells", "prize"} if custom else {"shape", "prize"}
        if not isinstance(item, dict) or set(item) - keys:
            raise _fail(at, "must be a table { shape, prize } or { name, cells, prize }")
        if custom:
            name = _text(item, "name", at)
            if not _NAME.fullmatch(name) or name.lower() in [*_SHAPES, *map(str.lower, names)]:
                raise _fail(f"{at}.name", f"{name!r}: 1 to 24 letters, digits, spaces, '-' or \"'\" (a "
                                          "letter or digit first), not a catalogue shape's name nor another "
                                          "pattern's")
            sets = _cells(item, at)
        else:
            name = _text(item, "shape", at)
            if name not in _SHAPES or name in names:
                raise _fail(f"{at}.shape", f"{name!r}: one of {', '.join(_SHAPES)}, each once")
            sets = _SHAPES[name]
        same = next((k for k, (_, other) in enumerate(drawn)
                     if {frozenset(s) for s in other} == {frozenset(s) for s in sets}), None)
        if same is not None:
            raise _fail(at, f"the same cell sets as patterns[{same}] ({drawn[same][0]!r})")
        names.append(name)
        drawn.append((name, sets))
        code = _text(item, "prize", at)
        if code not in prizes or code in paid:
            raise _fail(f"{at}.prize", "not one of the area's prize symbols, or a pattern's already")
        symbol = prizes[code]
        cents = money(doc["printed"]["price"] if symbol.get("free") else symbol.get("value"), f"{at}.prize",
                      sign_of(doc))
        if paid and cents <= last:
            raise _fail(f"{at}.prize", "the patterns are listed by increasing prize")
        last = cents
        paid.append(code)
    if not paid:
        raise _fail(f"{where}.patterns", "list the patterns that win, each with its prize")


def _maze(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    cells, starts = area["rows"] * area["cols"], area["starts"]
    if not (1 <= len(starts) <= 4 and all(type(s) is int and 0 <= s < cells for s in starts)
            and len(set(starts)) == len(starts)):
        raise _fail(f"{where}.starts", f"1 to 4 distinct cells 0..{cells - 1}")
    prizes, seen = _prizes(doc, area), []
    for i, item in enumerate(_list(area, "exits", where)):
        at = f"{where}.exits[{i}]"
        if not isinstance(item, dict):
            raise _fail(at, "must be a table { side, at, prize }")
        side = _text(item, "side", at)
        if side not in _SIDES:
            raise _fail(f"{at}.side", f"{side!r}: one of {', '.join(_SIDES)}")
        n = _whole(item, "at", at, 0, (area["cols"] if side in ("top", "bottom") else area["rows"]) - 1)
        if (side, n) in seen:
            raise _fail(at, f"exit {side} {n} listed twice")
        seen.append((side, n))
        if _text(item, "prize", at) not in prizes:
            raise _fail(f"{at}.prize", "not one of the area's prize symbols")
    if not seen:
        raise _fail(f"{where}.exits", "list the exits that pay, each with its prize")


def _add_up(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """docs/styles/add_up.md, section 2: numbers whose codes are their values; the target a whole number
    >= 0, or with `reach = "exactly"` a list of 2 to 16 distinct ones; at most 65,536 S-tuples of numbers,
    and a target some game reaches and some game misses (each listed one reached)."""
    codes = [s["code"] for s in doc["symbols"] if s.get("group") == area["numbers"]]
    if not all(c.isdigit() and c.isascii() and len(c) <= 6 for c in codes):
        raise _fail(f"{where}.numbers", "each number's code is its value, a whole number 0..999999")
    target, spots = area["target"], area["spots"]
    if isinstance(target, list) and area["reach"] == "exactly":
        if not 2 <= len(target) <= 16 or len(set(map(repr, target))) != len(target) \
                or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in target):
            raise _fail(f"{where}.target", "2 to 16 distinct whole numbers >= 0 (the TARGETS)")
    elif isinstance(target, bool) or not isinstance(target, int):
        raise _fail(f"{where}.target", f"must be a whole number, not {target!r}")
    elif target < 0:
        raise _fail(f"{where}.target", f"must be at least 0, got {target}")
    if len(codes) ** spots > 65_536:
        raise _fail(f"{where}.spots", f"{len(codes)} numbers in {spots} spots are more than 65,536 tuples to "
                                      "draw from")
    sums = {0}
    for _ in range(spots):  # every sum a game of S numbers shows
        sums = {s + int(c) for s in sums for c in codes}
    targets = target if isinstance(target, list) else [target]
    if area["reach"] == "exactly":
        wins, misses = sums & set(targets), sums - set(targets)
    else:
        wins, misses = {s for s in sums if s >= target}, {s for s in sums if s < target}
    if not wins or not misses:
        said = " or ".join(map(str, targets))
        raise _fail(f"{where}.target", f"a game of {spots} numbers must be able to "
                                       f"{'reach' if not wins else 'miss'} {said}")
    for t in targets if isinstance(target, list) else []:
        if t not in sums:
            raise _fail(f"{where}.target", f"a game of {spots} numbers cannot add up to {t}")


def refuse_count_legend(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """docs/styles/blackjack.md, section 10: a legend only with pays = "count", by hands won, its counts
    consecutive."""
    if area.get("pays", "hand") == "hand" and "legend" in area:
        raise _fail(f"{where}.legend", "unknown field: a legend is read only with pays = \"count\"")
    if area.get("pays") != "count":
        return
    if "legend" not in area:
        raise _fail(f"{where}.legend", "missing field")
    _legend(area["legend"], f"{where}.legend", "count", area["hands"], _prizes(doc, area), "hands won")
    for i in range(1, len(area["legend"])):
        last, count = area["legend"][i - 1]["count"], area["legend"][i]["count"]
        if count != last + 1:
            raise _fail(f"{where}.legend[{i}].count", f"the legend lists consecutive counts: {last + 1}, "
                                                      f"not {count}")


def refuse_unshaped_lists(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """UnusableInput naming the first item of an area's legend, patterns, exits, bonus or doubler (or its
    target) that its style's contract refuses; the area's own fields have been checked (area_fields.py)."""
    style = area["style"]
    if style == "symbol_count":
        _legend(area["legend"], f"{where}.legend", "count", area["spots"], _prizes(doc, area), "symbols")
    elif style == "crossword":
        _crossword(doc, area, where)
    elif style == "bingo":
        _bingo(doc, area, where)
    elif style == "maze":
        _maze(doc, area, where)
    elif style == "add_up":
        _add_up(doc, area, where)
