"""A bingo area's listed patterns (docs/styles/bingo.md, sections 1 and 2): a shape of the catalogue
or the spec's own cell sets (cell k = row k // 5, column k % 5; the centre is 12), each with a prize,
listed by strictly increasing prize."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from poolgen.game.model import Symbol
from poolgen.game.play import FieldReader

__all__ = ["MAX_SETS", "SHAPES", "Pattern", "read_patterns"]

_ROWS = tuple(tuple(r * 5 + c for c in range(5)) for r in range(5))
_COLUMNS = tuple(tuple(r * 5 + c for r in range(5)) for c in range(5))
_DIAGONALS = ((0, 6, 12, 18, 24), (4, 8, 12, 16, 20))
_LINES = _ROWS + _COLUMNS + _DIAGONALS
# The catalogue (section 1), each shape's cell sets in the order the layout draws among them.
SHAPES: dict[str, tuple[tuple[int, ...], ...]] = {
    "line": _LINES,
    "corners": ((0, 4, 20, 24),),
    "x": (tuple(sorted(set(_DIAGONALS[0]) | set(_DIAGONALS[1]))),),
    "full": (tuple(range(25)),),
    "postage_stamp": ((0, 1, 5, 6), (3, 4, 8, 9), (15, 16, 20, 21), (18, 19, 23, 24)),
    "frame": (tuple(k for k in range(25) if k // 5 in (0, 4) or k % 5 in (0, 4)),),
    "two_lines": tuple(tuple(sorted(set(a) | set(b))) for a, b in combinations(_LINES, 2)),
}
MAX_SETS = 256  # a custom pattern's cell sets at most
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 '-]{0,23}")


@dataclass(frozen=True)
class Pattern:
    name: str  # the catalogue shape, or the custom pattern's name
    sets: tuple[tuple[int, ...], ...]  # its cell sets in the listed order, each's cells as listed
    prize: Symbol
    custom: bool  # the spec gave its cells (the manifest lists them)

    def entry(self) -> dict[str, Any]:
        """The manifest's entry of the pattern (section 3): a catalogue shape's as before custom ones."""
        if not self.custom:
            return {"shape": self.name, "prize": self.prize.code}
        return {"name": self.name, "cells": [list(s) for s in self.sets], "prize": self.prize.code}


def _cell_sets(r: FieldReader, raw: list[Any], at: str) -> tuple[tuple[int, ...], ...]:
    """A custom pattern's `cells`: 1..MAX_SETS non-empty sets of distinct cells 0..24, no set twice
    (as sets: in any order); each kept as listed, so the manifest states the spec's own lists."""
    if not 1 <= len(raw) <= MAX_SETS:
        raise r.fail(f"{at}.cells", f"a list of 1 to {MAX_SETS} cell sets (lists of cells 0..24)")
    sets: list[tuple[int, ...]] = []
    for j, cells in enumerate(raw):
        where = f"{at}.cells[{j}]"
        if not isinstance(cells, list) or not cells:
            raise r.fail(where, "an empty cell set: list one or more cells 0..24")
        for v in cells:
            if type(v) is not int or not 0 <= v <= 24:
                raise r.fail(where, f"{v!r} is not a cell 0..24 (row k // 5, column k % 5)")
        if len(set(cells)) != len(cells):
            raise r.fail(where, "a cell listed twice")
        same = next((k for k, other in enumerate(sets) if set(other) == set(cells)), None)
        if same is not None:
            raise r.fail(where, f"the same cells as cells[{same}]")
        sets.append(tuple(cells))
    return tuple(sets)


def read_patterns(r: FieldReader, items: list[Any], where: str,
                  prizes: Sequence[Symbol]) -> tuple[Pattern, ...]:
    """The area's `patterns` (section 2), each refusal one line naming the field."""
    out: list[Pattern] = []
    for i, item in enumerate(items):
        at = f"{where}.patterns[{i}]"
        custom = isinstance(item, dict) and bool({"name", "cells"} & set(item))
        keys = {"name", "cells", "prize"} if custom else {"shape", "prize"}
        if not isinstance(item, dict) or set(item) - keys:
            raise r.fail(at, "must be a table { shape, prize } or { name, cells, prize }")
        if custom:
            name = r.get(item, "name", at, str)
            if not _NAME.fullmatch(name) or name.lower() in SHAPES \
                    or any(p.name.lower() == name.lower() for p in out):
                raise r.fail(f"{at}.name", f"{name!r}: 1 to 24 letters, digits, spaces, '-' or \"'\" (a "
                                           "letter or digit first), not a catalogue shape's name nor another "
                                           "pattern's")
            sets = _cell_sets(r, r.get(item, "cells", at, list), at)
        else:
            name = r.get(item, "shape", at, str)
            if name not in SHAPES or any(p.name == name for p in out):
                raise r.fail(f"{at}.shape", f"{name!r}: one of {', '.join(SHAPES)}, each once")
            sets = SHAPES[name]
        as_sets = {frozenset(s) for s in sets}
        same = next((k for k, p in enumerate(out) if {frozenset(s) for s in p.sets} == as_sets), None)
        if same is not None:
            raise r.fail(at, f"the same cell sets as patterns[{same}] ({out[same].name!r})")
        prize = next((s for s in prizes if s.code == r.get(item, "prize", at, str)), None)
        if prize is None or any(p.prize.code == prize.code for p in out):
            raise r.fail(f"{at}.prize", "not one of the area's prize symbols, or a pattern's already")
        if out and (prize.cents or 0) <= (out[-1].prize.cents or 0):
            raise r.fail(f"{at}.prize", "the patterns are listed by increasing prize")
        out.append(Pattern(name, sets, prize, custom))
    if not out:
        raise r.fail(f"{where}.patterns", "list the patterns that win, each with its prize")
    return tuple(out)
