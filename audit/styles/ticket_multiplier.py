"""Ticket-wide multiplier, evaluated from docs/styles/ticket_multiplier.md (sections 3 to 6) alone.

A BONUS box of S spots, each a picture (codes 0..D-1) or a multiplier `multipliers[q]` (code D + q). A
spot showing a multiplier is the area's one win, `how = "ticket"`, by its k, paying 0 itself;
audit/styles/play.py scales the ticket's other wins by k (docs/styles/play.md, rule 2). A row is
illegal (section 6, rules 1 and 2, in this order) when a code is out of range or more than one spot
shows a multiplier. With `multipliers_on_losers` true, audit/styles/play.py takes a multiplier on a
row that wins nothing else as no win (section 5). With `multiplies` (section 9, `cover`), it scales the
wins of the areas (or crossword grids) named alone, and a multiplier with none of them to scale is no
win with `multipliers_on_losers`, an illegal row without."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns, show


def _readable(area: dict[str, Any]) -> bool:
    spots, pictures, prizes = area.get("spots"), area.get("pictures"), area.get("multipliers")
    return (type(spots) is int and 1 <= spots <= 32 and isinstance(pictures, list) and bool(pictures)
            and all(isinstance(p, str) for p in pictures) and len(set(pictures)) == len(pictures)
            and isinstance(prizes, list) and bool(prizes) and len(pictures) + len(prizes) <= 256
            and all(isinstance(p, dict) and isinstance(p.get("code"), str) and type(p.get("by")) is int
                    and 2 <= p["by"] <= 4095 for p in prizes)
            and len({p["code"] for p in prizes}) == len(prizes)
            and type(area.get("multipliers_on_losers", False)) is bool
            and ("multiplies" not in area or isinstance(area["multiplies"], list)
                 and bool(area["multiplies"])))


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    if not _readable(area):
        raise ValueError(f"manifest play entry: area {aid!r}: spots, pictures, multipliers or "
                         "multipliers_on_losers unreadable")
    d, prizes = len(area["pictures"]), area["multipliers"]
    m = len(prizes)
    n = table.height
    codes = int_columns(table, [f"{aid}_spot_{j}" for j in range(area["spots"])]).astype(np.int64)
    bad = ((codes < 0) | (codes >= d + m)).any(axis=1)
    reasons.add(bad, lambda r: f"{aid}: a spot code out of range ({', '.join(show(v) for v in codes[r])})")
    shown = (codes >= d) & (codes < d + m)
    count = shown.sum(axis=1)
    reasons.add(count > 1, lambda r: f"{aid}: {int(count[r])} multiplier symbols (at most one)")
    # the one win: the first spot showing a multiplier (a row with more is illegal above)
    first = np.argmax(shown, axis=1)
    q = np.clip(codes[np.arange(n), first] - d, 0, m - 1)
    by = np.array([int(p["by"]) for p in prizes], dtype=np.int64)
    return [Slot(won=count > 0, how=np.full(n, HOWS.index("ticket"), dtype=np.int64), by=by[q],
                 prize=q, cents=np.zeros(n, dtype=np.int64))]


def cover(areas: list[Any]) -> dict[int, np.ndarray | None] | None:
    """Section 9: what the play's multiplier area (at most one) multiplies, as {area index: the prize
    indices of its covered wins (a grid's: its legend's, covered as `match` wins only), None for every
    win}; None when it says no `multiplies` (every win)."""
    me = next((i for i, a in enumerate(areas) if isinstance(a, dict) and a.get("style") == "ticket_multiplier"
               and "multiplies" in a), None)
    if me is None:
        return None
    names = {a.get("id"): i for i, a in enumerate(areas) if isinstance(a, dict)}
    box = areas[me].get("id")
    out: dict[int, np.ndarray | None] = {}
    if not isinstance(areas[me]["multiplies"], list) or not areas[me]["multiplies"]:
        raise ValueError(f"manifest play entry: area {box!r}: multiplies is not a non-empty "
                         "list")
    for t in areas[me]["multiplies"]:
        at = names.get(t.get("area")) if isinstance(t, dict) and isinstance(t.get("area"), str) else None
        if at is None or at == me or at in out:
            raise ValueError(f"manifest play entry: area {box!r}: multiplies names no other "
                             "area, or one twice")
        out[at] = None
        if "grid" in t:
            target, grid = areas[at], t["grid"]
            legends = target.get("legends")
            if target.get("style") != "crossword" or not isinstance(legends, list) or type(grid) is not int \
                    or not 1 <= grid <= len(legends) or not isinstance(legends[grid - 1], list):
                raise ValueError(f"manifest play entry: area {box!r}: multiplies grid {grid!r} "
                                 "is not a grid of a crossword with legends")
            codes = [p.get("code") if isinstance(p, dict) else None for p in target.get("prizes") or []]
            mine = {x.get("prize") for x in legends[grid - 1] if isinstance(x, dict)}
            out[at] = np.array([k for k, c in enumerate(codes) if c in mine], dtype=np.int64)
    return out
