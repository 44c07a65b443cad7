"""Blackjack, evaluated from docs/styles/blackjack.md (sections 3 to 6) alone.

H HANDS of k spots and one DEALER'S TOTAL; a HAND wins its PRIZE when the `points` of its spots add up
to 21 or less and above the DEALER'S TOTAL's `dealer_points`. A row is illegal (section 5, rule 1) only
when a code is out of range. Sections 9 and 10: `dealer_cards` DEALER spots summed, and with
`pays = "count"` one win, the legend's prize for the number of HANDS won (its last line: that many or
more)."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns


def _whole_list(value: object, length: int, low: int, high: int) -> bool:
    return (isinstance(value, list) and len(value) == length
            and all(type(v) is int and low <= v <= high for v in value))


def _codes(value: object, least: int) -> bool:
    return isinstance(value, list) and len(value) >= least and len(set(map(str, value))) == len(value)


def _legend(area: dict[str, Any], hands: int) -> list[tuple[int, int]] | None:
    """Section 10: (count, index into `prizes`) per line, or None when unreadable."""
    raw, prizes = area.get("legend"), area.get("prizes")
    if not (isinstance(raw, list) and raw and isinstance(prizes, list)):
        return None
    codes = [str(p.get("code")) if isinstance(p, dict) else None for p in prizes]
    out: list[tuple[int, int]] = []
    for line in raw:
        if not (isinstance(line, dict) and set(line) == {"count", "prize"} and type(line["count"]) is int
                and 1 <= line["count"] <= hands and line["prize"] in codes):
            return None
        if out and line["count"] != out[-1][0] + 1 or codes.index(line["prize"]) in [j for _, j in out]:
            return None
        out.append((line["count"], codes.index(line["prize"])))
    return out


def _shape(area: dict[str, Any]) -> tuple[int, bool] | None:
    """Sections 9 and 10: the DEALER spots and whether the area pays by count, or None when unreadable."""
    c, pays = area.get("dealer_cards", 1), area.get("pays", "hand")
    if type(c) is not int or not 1 <= c <= 3 or pays not in ("hand", "count") or (
            pays == "hand" and "legend" in area):
        return None
    return c, pays == "count"


def columns(area: dict[str, Any]) -> list[str]:
    aid, hands, k = area["id"], area["hands"], area["hand_cards"]
    c, by_count = _shape(area) or (1, False)
    return ([f"{aid}_dealer_{j}" for j in range(c)] + [f"{aid}_card_{i}" for i in range(hands * k)]
            + ([] if by_count else [f"{aid}_prize_{h}" for h in range(hands)]))


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    hands, k, numbers, dealer = (area.get("hands"), area.get("hand_cards"), area.get("numbers"),
                                 area.get("dealer_totals"))
    prizes = area.get("prizes")
    if not (type(hands) is int and 1 <= hands <= 16 and type(k) is int and 1 <= k <= 3
            and _codes(numbers, 2) and _codes(dealer, 1) and isinstance(numbers, list)
            and isinstance(dealer, list) and _whole_list(area.get("points"), len(numbers), 1, 99)
            and _whole_list(area.get("dealer_points"), len(dealer), 0, 21)
            and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)):
        raise ValueError(f"manifest play entry: area {aid!r}: hands, hand_cards, numbers, points, "
                         "dealer_totals, dealer_points or prizes unreadable")
    shape = _shape(area)
    legend = _legend(area, hands) if shape and shape[1] else []
    if shape is None or legend is None:
        raise ValueError(f"manifest play entry: area {aid!r}: dealer_cards, pays or legend unreadable")
    c, by_count = shape
    names = columns(area)
    codes = int_columns(table, names).astype(np.int64)
    n = table.height
    ds, cards, boxes = codes[:, :c], codes[:, c:c + hands * k], codes[:, c + hands * k:]
    bad = np.concatenate([(ds < 0) | (ds >= len(dealer)), (cards < 0) | (cards >= len(numbers)),
                          (boxes < 0) | (boxes >= len(prizes))], axis=1)
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    points = np.array(area["points"], dtype=np.int64)
    dealer_points = np.array(area["dealer_points"], dtype=np.int64)
    card_ok = (cards >= 0) & (cards < len(numbers))
    dealer_ok: np.ndarray = np.all((ds >= 0) & (ds < len(dealer)), axis=1)
    hand_ok = card_ok.reshape(n, hands, k).all(axis=2) & dealer_ok[:, None]
    totals = points[np.clip(cards, 0, len(numbers) - 1)].reshape(n, hands, k).sum(axis=2)
    against = dealer_points[np.clip(ds, 0, len(dealer) - 1)].sum(axis=1)[:, None]
    won = hand_ok & (totals <= 21) & (totals > against)
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    if by_count:  # section 10: one win, the legend's line for the HANDS won (the last: that many or more)
        m = won.sum(axis=1)
        line = np.clip(m - legend[0][0], 0, len(legend) - 1)
        box = np.array([j for _, j in legend], dtype=np.int64)[line]
        return [Slot(won=m >= legend[0][0], how=np.full(n, HOWS.index("match"), dtype=np.int64),
                     by=np.ones(n, dtype=np.int64), prize=box, cents=cents[box])]
    slots = []
    for h in range(hands):
        box = np.clip(boxes[:, h], 0, len(prizes) - 1)
        slots.append(Slot(won=won[:, h], how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(n, dtype=np.int64), prize=box, cents=cents[box]))
    return slots
