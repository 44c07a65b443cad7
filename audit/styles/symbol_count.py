"""Symbol count, evaluated from docs/styles/symbol_count.md (sections 3 to 6) alone.

The number of spots showing the counted symbol wins the legend's prize for that number. A row is
illegal (section 5, rules 1 to 3, in this order) when a spot code is out of range, a decoy picture
shows more than `most_alike` times, or the count is at least the legend's smallest and not listed."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns, show


def _read(area: dict[str, Any]) -> tuple[int, list[str], int, list[int], list[tuple[int, int]], int]:
    aid = area["id"]
    spots, pictures, symbol = area.get("spots"), area.get("pictures"), area.get("symbol")
    prizes, legend, most = area.get("prizes"), area.get("legend"), area.get("most_alike")
    ok = (type(spots) is int and 1 <= spots <= 64 and isinstance(pictures, list)
          and all(isinstance(p, str) for p in pictures) and len(set(pictures)) == len(pictures)
          and symbol in pictures and type(most) is int and most >= 1 and isinstance(prizes, list) and prizes
          and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)
          and isinstance(legend, list) and legend)
    if not ok:
        raise ValueError(f"manifest play entry: area {aid!r}: spots, pictures, symbol, prizes, legend or "
                         "most_alike unreadable")
    assert isinstance(spots, int) and isinstance(pictures, list) and isinstance(prizes, list)
    assert isinstance(legend, list) and isinstance(most, int)
    codes = [p.get("code") for p in prizes]
    table: list[tuple[int, int]] = []
    for item in legend:
        c = item.get("count") if isinstance(item, dict) else None
        prize = item.get("prize") if isinstance(item, dict) else None
        if type(c) is not int or not 1 <= c <= spots or (table and c <= table[-1][0]) or prize not in codes:
            raise ValueError(f"manifest play entry: area {aid!r}: the legend's counts are not increasing "
                             "1..spots, or a prize is not one of its prizes")
        table.append((c, codes.index(prize)))
    return spots, pictures, pictures.index(symbol), [int(p["cents"]) for p in prizes], table, most


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    spots, pictures, symbol, cents, legend, most = _read(area)
    codes = int_columns(table, [f"{aid}_spot_{j}" for j in range(spots)]).astype(np.int64)
    n = table.height
    bad = ((codes < 0) | (codes >= len(pictures))).any(axis=1)
    reasons.add(bad, lambda r: f"{aid}: a spot code out of range ({', '.join(show(v) for v in codes[r])})")
    shown = np.stack([(codes == i).sum(axis=1) for i in range(len(pictures))], axis=1)
    decoys = [i for i in range(len(pictures)) if i != symbol]
    over = (shown[:, decoys] > most).any(axis=1) if decoys else np.zeros(n, dtype=bool)

    def _over(r: int) -> str:
        return ", ".join(f"{aid}: {pictures[i]} shown {int(shown[r, i])} times, at most {most}"
                         for i in decoys if shown[r, i] > most)

    reasons.add(over, _over)
    count = shown[:, symbol]
    counts = np.array([c for c, _ in legend], dtype=np.int64)
    reasons.add(~np.isin(count, counts) & (count >= counts[0]),
                lambda r: f"{aid}: {int(count[r])} x {pictures[symbol]}: the legend has no prize for "
                          f"{int(count[r])}")
    prize_of = np.full(spots + 1, -1, dtype=np.int64)
    for c, p in legend:
        prize_of[c] = p
    prize = prize_of[count]
    cents_of = np.array(cents, dtype=np.int64)
    return [Slot(won=prize >= 0, how=np.full(n, HOWS.index("match"), dtype=np.int64),
                 by=np.ones(n, dtype=np.int64), prize=np.maximum(prize, 0),
                 cents=np.where(prize >= 0, cents_of[np.maximum(prize, 0)], 0))]
