"""Bingo, evaluated from docs/styles/bingo.md (sections 3 to 6) alone.

A card's cell is marked when its number is among the caller's numbers (the FREE centre always); a
pattern is complete when every cell of one of its cell sets (its catalogue shape's, or the ones the
manifest lists for a custom pattern) is marked; each card wins the
prize of its highest listed pattern complete, one slot a card. A row is illegal (section 5, rules 1
and 2, in this order) when the caller's numbers are not distinct numbers 1-75, or a card is not a
bingo card."""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns, show

_ROWS = [[r * 5 + c for c in range(5)] for r in range(5)]
_COLS = [[r * 5 + c for r in range(5)] for c in range(5)]
_DIAG = [[0, 6, 12, 18, 24], [4, 8, 12, 16, 20]]
_LINES = _ROWS + _COLS + _DIAG
SETS = {"line": _LINES, "corners": [[0, 4, 20, 24]],
        "x": [sorted(set(_DIAG[0]) | set(_DIAG[1]))], "full": [list(range(25))],
        "postage_stamp": [[0, 1, 5, 6], [3, 4, 8, 9], [15, 16, 20, 21], [18, 19, 23, 24]],
        "frame": [[k for k in range(25) if k < 5 or k >= 20 or k % 5 in (0, 4)]],
        "two_lines": [sorted(set(a) | set(b)) for a, b in combinations(_LINES, 2)]}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 '-]{0,23}")


def _cells(raw: object) -> list[list[int]] | None:
    """A custom pattern's `cells` (section 3): 1 to 256 sets, each of distinct cells 0..24, no two
    the same set; None when it is not."""
    if not (isinstance(raw, list) and 1 <= len(raw) <= 256):
        return None
    for cells in raw:
        if not (isinstance(cells, list) and cells and all(type(v) is int and 0 <= v <= 24 for v in cells)
                and len(set(cells)) == len(cells)):
            return None
    return raw if len({frozenset(c) for c in raw}) == len(raw) else None


def _pattern(item: object, names: list[str]) -> tuple[str, list[list[int]], object] | None:
    """(name, cell sets, prize code) of a listed pattern, None when unreadable."""
    if isinstance(item, dict) and set(item) == {"shape", "prize"}:
        shape = item["shape"]
        ok = isinstance(shape, str) and shape in SETS and shape not in names
        return (shape, SETS[shape], item["prize"]) if ok else None
    if isinstance(item, dict) and set(item) == {"name", "cells", "prize"}:
        name, cells = item["name"], _cells(item["cells"])
        if isinstance(name, str) and _NAME.fullmatch(name) and name.lower() not in SETS \
                and name.lower() not in [n.lower() for n in names] and cells is not None:
            return name, cells, item["prize"]
    return None


def _unreadable(aid: object) -> ValueError:
    return ValueError(f"manifest play entry: area {aid!r}: cards, free, calls, patterns or prizes unreadable")


def _numbers(stored: np.ndarray) -> np.ndarray:
    """Stored codes (index into `numbers`) as the numbers they show: 0..74 the numbers 1..75, 75 the
    FREE centre (0 here); anything else -1."""
    s = stored.astype(np.int64)
    return np.where((s >= 0) & (s < 75), s + 1, np.where(s == 75, 0, -1))


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    cards, free, calls = area.get("cards"), area.get("free"), area.get("calls")
    patterns, prizes, numbers = area.get("patterns"), area.get("prizes"), area.get("numbers")
    if not (type(cards) is int and 1 <= cards <= 8 and type(free) is bool and type(calls) is int
            and 1 <= calls <= 74 and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)
            and isinstance(patterns, list) and patterns and isinstance(numbers, list)
            and len(numbers) == 75 + free and numbers[:75] == [str(v) for v in range(1, 76)]):
        raise _unreadable(aid)
    codes = [p.get("code") for p in prizes]
    listed: list[tuple[str, list[list[int]], int]] = []
    for item in patterns:
        read = _pattern(item, [name for name, _, _ in listed])
        if read is None or read[2] not in codes or any(
                {frozenset(c) for c in sets} == {frozenset(c) for c in read[1]} for _, sets, _ in listed):
            raise _unreadable(aid)
        p = codes.index(read[2])
        if listed and prizes[p]["cents"] <= prizes[listed[-1][2]]["cents"]:
            raise _unreadable(aid)
        listed.append((read[0], read[1], p))
    n = table.height
    raw = int_columns(table, [f"{aid}_call_{i}" for i in range(calls)])
    drawn = _numbers(raw)
    ordered = np.sort(drawn, axis=1)
    bad_calls = ((drawn < 1) | (drawn > 75)).any(axis=1) | (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    reasons.add(bad_calls, lambda r: f"{aid}: the caller's numbers are not distinct numbers 1-75 "
                                     f"({', '.join(show(v) for v in raw[r])})")
    called = np.zeros((n, 77), dtype=bool)
    np.put_along_axis(called, np.clip(drawn, 0, 76), True, axis=1)
    called[:, 0] = called[:, 76] = False
    low = np.array([15 * (k % 5) + 1 for k in range(25)], dtype=np.int64)
    slots = []
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    for k in range(cards):
        stored = int_columns(table, [f"{aid}_card{k}_{c}" for c in range(25)])
        card = _numbers(stored)
        in_column = (card >= low) & (card < low + 15)
        if free:
            in_column[:, 12] = card[:, 12] == 0
        numbers = np.sort(np.where(card > 0, card, -np.arange(1, 26)), axis=1)
        bad = ~in_column.all(axis=1) | (numbers[:, 1:] == numbers[:, :-1]).any(axis=1)
        reasons.add(bad, lambda r, k=k, stored=stored: f"{aid}: card {k + 1} is not a bingo card "
                                                      f"({', '.join(show(v) for v in stored[r])})")
        marked = np.take_along_axis(called, np.clip(card, 0, 76), axis=1)
        if free:
            marked[:, 12] = True
        best = np.full(n, -1, dtype=np.int64)
        for i, (_, sets, _) in enumerate(listed):
            done = np.zeros(n, dtype=bool)
            for cells in sets:
                done |= marked[:, cells].all(axis=1)
            best[done] = i
        prize = np.array([p for _, _, p in listed] + [-1], dtype=np.int64)[best]
        slots.append(Slot(won=best >= 0, how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(n, dtype=np.int64), prize=np.maximum(prize, 0),
                          cents=np.where(best >= 0, cents[np.maximum(prize, 0)], 0)))
    return slots
