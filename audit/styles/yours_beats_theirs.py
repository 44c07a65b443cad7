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
    mults = area.get("multipliers", [])
    if "multipliers" in area and not (
            isinstance(mults, list) and len(mults) >= 2
            and all(isinstance(m, dict) and type(m.get("by")) is int and 2 <= m["by"] <= 1000
                    and isinstance(m.get("code"), str) for m in mults)
            and len({m["code"] for m in mults}) == len({m["by"] for m in mults}) == len(mults)):
        raise ValueError(f"manifest play entry: area {aid!r}: multipliers unreadable")
    parts = ("yours", "theirs", "prize") + (("mult",) if mults else ())
    names = [f"{aid}_{part}_{p}" for part in parts for p in range(pairs)]
    codes = int_columns(table, names).astype(np.int64)
    n = table.height
    yours, theirs, boxes = codes[:, :pairs], codes[:, pairs:2 * pairs], codes[:, 2 * pairs:3 * pairs]
    spots = codes[:, 3 * pairs:]  # the multiplier spots (section 9); none without multipliers
    bad = np.concatenate([(yours < 0) | (yours >= len(numbers)), (theirs < 0) | (theirs >= len(numbers)),
                          (boxes < 0) | (boxes >= len(prizes)), (spots < 0) | (spots >= len(mults))], axis=1)
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    won = (yours > theirs) | ((yours == theirs) if ties == "win" else np.zeros_like(yours, dtype=bool))
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    ks = np.array([int(m["by"]) for m in mults] or [1], dtype=np.int64)
    slots = []
    for p in range(pairs):
        box = np.clip(boxes[:, p], 0, len(prizes) - 1)
        by = ks[np.clip(spots[:, p], 0, len(ks) - 1)] if mults else np.ones(n, dtype=np.int64)
        slots.append(Slot(won=won[:, p], how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=by, prize=box, cents=cents[box]))
    return slots
