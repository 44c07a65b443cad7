"""Bonus reveal, evaluated from docs/styles/bonus_reveal.md (sections 3 to 6) alone: rule 1 (a code out
of range) and rule 2 (a picture more than `most_alike` times, on every ticket) of section 6."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns, show


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    spots, alike = area.get("spots"), area.get("most_alike")
    prizes, pictures = area.get("prizes"), area.get("pictures")
    if not (isinstance(spots, int) and not isinstance(spots, bool) and spots >= 1
            and isinstance(alike, int) and not isinstance(alike, bool) and 1 <= alike <= spots
            and isinstance(prizes, list) and prizes and isinstance(pictures, list) and pictures):
        raise ValueError(f"manifest play entry: area {aid!r}: spots, most_alike, prizes or pictures "
                         "unreadable")
    if len(prizes) + len(pictures) > 256:
        raise ValueError(f"manifest play entry: area {aid!r}: more than 256 symbols")
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    d = len(pictures)
    codes = int_columns(table, [f"{aid}_spot_{j}" for j in range(spots)]).astype(np.int64)

    bad = ((codes < 0) | (codes >= d + len(prizes))).any(axis=1)
    reasons.add(bad, lambda r: f"{aid}: a spot code out of range ({', '.join(show(v) for v in codes[r])})")
    # Section 6: no picture shows more than most_alike times (that many alike read as a match).
    alike_most = np.zeros(table.height, dtype=np.int64)
    for c in range(d):
        alike_most = np.maximum(alike_most, (codes == c).sum(axis=1))
    crowded = alike_most > alike
    reasons.add(crowded, lambda r: f"{aid}: one picture shows {int(alike_most[r])} times (at most {alike}: "
                                   "more read as a match that wins nothing)")

    slots = []
    for j in range(spots):
        shown = codes[:, j]
        won = (shown >= d) & (shown < d + len(prizes))
        q = np.clip(shown - d, 0, len(prizes) - 1)
        slots.append(Slot(won=won, how=np.full(table.height, HOWS.index("reveal")),
                          by=np.ones(table.height, dtype=np.int64), prize=q, cents=cents[q]))
    return slots
