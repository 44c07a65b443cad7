"""Add up, evaluated from docs/styles/add_up.md (sections 3 to 6) alone.

G games of S numbers (a number's value is its code read as a whole number) and a PRIZE each; a game
whose values add up to the target or more (`reach` "at_least") or exactly to it (`reach` "exactly";
a list of targets, "7 or 11": exactly to one of them) wins its PRIZE; a game showing a code out of
range wins nothing. A row is illegal (section 5, rule 1) only when a code is out of range."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns


def _targets(target: Any, reach: Any) -> bool:
    """A whole number >= 0, or with reach "exactly" a list of 2 to 16 distinct ones (section 3)."""
    if type(target) is int:
        return target >= 0
    return (isinstance(target, list) and reach == "exactly" and 2 <= len(target) <= 16
            and all(type(t) is int and t >= 0 for t in target) and len(set(target)) == len(target))


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    games, spots, numbers = area.get("games"), area.get("spots"), area.get("numbers")
    target, reach, prizes = area.get("target"), area.get("reach"), area.get("prizes")
    if not (type(games) is int and 1 <= games <= 32 and type(spots) is int and 1 <= spots <= 16
            and isinstance(numbers, list) and numbers
            and all(isinstance(x, str) and x.isdigit() and len(x) <= 6 for x in numbers)
            and len(set(numbers)) == len(numbers) and _targets(target, reach)
            and reach in ("at_least", "exactly") and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)):
        raise ValueError(f"manifest play entry: area {aid!r}: games, spots, numbers, target, reach or prizes "
                         "unreadable")
    names = [f"{aid}_spot_{j}" for j in range(games * spots)] + [f"{aid}_prize_{g}" for g in range(games)]
    codes = int_columns(table, names).astype(np.int64)
    n = table.height
    shown, boxes = codes[:, :games * spots].reshape(n, games, spots), codes[:, games * spots:]
    bad = np.concatenate([((shown < 0) | (shown >= len(numbers))).reshape(n, -1),
                          (boxes < 0) | (boxes >= len(prizes))], axis=1)
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    values = np.array([int(x) for x in numbers], dtype=np.int64)
    total = values[np.clip(shown, 0, len(numbers) - 1)].sum(axis=2)
    targets = np.array(target if isinstance(target, list) else [target], dtype=np.int64)
    won = np.isin(total, targets) if reach == "exactly" else total >= targets[0]
    # a game showing a number or PRIZE out of range wins nothing (section 5): no clipped code pays
    won &= ~bad[:, :games * spots].reshape(n, games, spots).any(axis=2) & ~bad[:, games * spots:]
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    slots = []
    for g in range(games):
        box = np.clip(boxes[:, g], 0, len(prizes) - 1)
        slots.append(Slot(won=won[:, g], how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(n, dtype=np.int64), prize=box, cents=cents[box]))
    return slots
