"""Yours beats theirs, evaluated from docs/styles/yours_beats_theirs.md (sections 3 to 6) alone.

P pairs of YOUR and THEIR symbol with a PRIZE; a pair wins its prize when YOUR symbol's rank (its
index in `numbers`) is above THEIRS, or equal where `ties` is "win". A row is illegal (section 5, rule
1) only when a code is out of range."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    pairs, numbers = area.get("pairs"), area.get("numbers")
    prizes, ties = area.get("prizes"), area.get("ties")
    if not (type(pairs) is int and 1 <= pairs <= 32 and isinstance(numbers, list) and len(numbers) >= 2
            and len(set(map(str, numbers))) == len(numbers) and ties in ("win", "lose")
            and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)):
        raise ValueError(f"manifest play entry: area {aid!r}: pairs, numbers, prizes or ties unreadable")
    names = [f"{aid}_{part}_{p}" for part in ("yours", "theirs", "prize") for p in range(pairs)]
    codes = int_columns(table, names).astype(np.int64)
    n = table.height
    yours, theirs, boxes = codes[:, :pairs], codes[:, pairs:2 * pairs], codes[:, 2 * pairs:]
    bad = np.concatenate([(yours < 0) | (yours >= len(numbers)), (theirs < 0) | (theirs >= len(numbers)),
                          (boxes < 0) | (boxes >= len(prizes))], axis=1)
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    won = (yours > theirs) | ((yours == theirs) if ties == "win" else np.zeros_like(yours, dtype=bool))
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    slots = []
    for p in range(pairs):
        box = np.clip(boxes[:, p], 0, len(prizes) - 1)
        slots.append(Slot(won=won[:, p], how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(n, dtype=np.int64), prize=box, cents=cents[box]))
    return slots
