"""Match N, evaluated from docs/styles/match_n.md (sections 3 to 6) alone.

A row is illegal (section 5, rules 1 to 4, in this order) when a spot code is out of range, an amount
shows more than N times, two or more spots show multiplier symbols, or a multiplier symbol shows in
an area where no amount shows exactly N - 1 times (section 6: it would multiply nothing)."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns, show


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    spots, match = area.get("spots"), area.get("match")
    prizes, mults = area.get("prizes"), area.get("multipliers")
    if not (isinstance(spots, int) and isinstance(match, int) and 2 <= match <= spots
            and isinstance(prizes, list) and prizes and isinstance(mults, list)
            and all(isinstance(m, dict) and type(m.get("by")) is int and 2 <= m["by"] < 4096 for m in mults)):
        raise ValueError(f"manifest play entry: area {aid!r}: spots, match, prizes or multipliers unreadable")
    if len(prizes) > 256:
        raise ValueError(f"manifest play entry: area {aid!r}: more than 256 prize symbols")
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    by = np.array([int(m["by"]) for m in mults] or [1], dtype=np.int64)
    n_p, n_m = len(prizes), len(mults)
    codes = int_columns(table, [f"{aid}_spot_{j}" for j in range(spots)]).astype(np.int64)
    bad = ((codes < 0) | (codes >= n_p + n_m)).any(axis=1)
    reasons.add(bad, lambda r: f"{aid}: a spot code out of range ({', '.join(show(v) for v in codes[r])})")
    count = np.stack([(codes == i).sum(axis=1) for i in range(n_p)], axis=1)
    mult_shown = np.stack([(codes == n_p + m).sum(axis=1) for m in range(n_m)], axis=1) if n_m else \
        np.zeros((table.height, 0), dtype=np.int64)
    n_mult = mult_shown.sum(axis=1)
    over = (count > match).any(axis=1)  # rule 2
    reasons.add(over, lambda r: f"{aid}: more than {match} like amounts")
    reasons.add(n_mult > 1, lambda r: f"{aid}: {int(n_mult[r])} multiplier symbols")  # rule 3: spots
    # Rule 4 (section 6): a multiplier symbol is shown only beside N - 1 like amounts, per area and
    # whatever the tier; a lone one would read as a multiplier the ticket is not paid.
    pair = (count == match - 1).any(axis=1)
    lone = (n_mult > 0) & ~pair
    names = [str(m.get("code")) for m in mults]

    def _lone(r: int) -> str:
        shown = ", ".join(names[m] for m in range(n_m) for _ in range(int(mult_shown[r, m])))
        return f"{aid}: {shown} beside no {match - 1} like amounts: it multiplies nothing"

    reasons.add(lone, _lone)
    which = mult_shown.argmax(axis=1) if n_m else np.zeros(table.height, dtype=np.int64)
    one_mult = n_mult == 1
    slots = []
    for i in range(n_p):
        full = count[:, i] == match
        multiplied = (count[:, i] == match - 1) & one_mult
        slots.append(Slot(won=full | multiplied,
                          how=np.where(multiplied & ~full, HOWS.index("multiplier"), HOWS.index("match")),
                          by=np.where(multiplied & ~full, by[which], 1).astype(np.int64),
                          prize=np.full(table.height, i, dtype=np.int64),
                          cents=np.full(table.height, cents[i], dtype=np.int64)))
    return slots
