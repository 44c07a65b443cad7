"""Prize box, evaluated from docs/styles/prize_box.md (sections 3 to 6) alone.

G games of S spots and a PRIZE box each; a game with exactly N like pictures wins its box's prize. A
row is illegal (section 5, rules 1 to 3, in this order) when a code is out of range, a game shows a
picture more than N times, or a game shows two matches."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    games, spots, match = area.get("games"), area.get("spots"), area.get("match")
    pictures, prizes = area.get("pictures"), area.get("prizes")
    if not (type(games) is int and 1 <= games <= 32 and type(spots) is int and 2 <= spots <= 32
            and type(match) is int and 2 <= match <= spots and isinstance(pictures, list) and pictures
            and len(set(map(str, pictures))) == len(pictures) and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)):
        raise ValueError(f"manifest play entry: area {aid!r}: games, spots, match, pictures or prizes "
                         "unreadable")
    n = table.height
    spot_cols = [f"{aid}_spot_{j}" for j in range(games * spots)]
    box_cols = [f"{aid}_prize_{g}" for g in range(games)]
    codes = int_columns(table, spot_cols).astype(np.int64).reshape(n, games, spots)
    boxes = int_columns(table, box_cols).astype(np.int64)
    bad = np.concatenate([(codes.reshape(n, -1) < 0) | (codes.reshape(n, -1) >= len(pictures)),
                          (boxes < 0) | (boxes >= len(prizes))], axis=1)
    names = spot_cols + box_cols
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    counts: np.ndarray = np.stack([(codes == c).sum(axis=2) for c in range(len(pictures))], axis=2)  # n, G, D
    over = np.any(counts > match, axis=2)
    two = np.sum(counts == match, axis=2) > 1
    reasons.add(over.any(axis=1), lambda r: ", ".join(f"{aid}: game {g + 1}: more than {match} like pictures"
                                                      for g in np.flatnonzero(over[r])))
    reasons.add(two.any(axis=1), lambda r: ", ".join(f"{aid}: game {g + 1}: two matches"
                                                     for g in np.flatnonzero(two[r])))
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    won = np.any(counts == match, axis=2)
    slots = []
    for g in range(games):
        box = np.clip(boxes[:, g], 0, len(prizes) - 1)
        slots.append(Slot(won=won[:, g], how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(n, dtype=np.int64), prize=box, cents=cents[box]))
    return slots
