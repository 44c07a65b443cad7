"""Blackjack, evaluated from docs/styles/blackjack.md (sections 3 to 6) alone.

H HANDS of k spots and one DEALER'S TOTAL; a HAND wins its PRIZE when the `points` of its spots add up
to 21 or less and above the DEALER'S TOTAL's `dealer_points`. A row is illegal (section 5, rule 1) only
when a code is out of range."""

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


def columns(area: dict[str, Any]) -> list[str]:
    aid, hands, k = area["id"], area["hands"], area["hand_cards"]
    return ([f"{aid}_dealer_0"] + [f"{aid}_card_{i}" for i in range(hands * k)]
            + [f"{aid}_prize_{h}" for h in range(hands)])


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
    names = columns(area)
    codes = int_columns(table, names).astype(np.int64)
    n = table.height
    d, cards, boxes = codes[:, 0], codes[:, 1:1 + hands * k], codes[:, 1 + hands * k:]
    bad = np.concatenate([((d < 0) | (d >= len(dealer)))[:, None], (cards < 0) | (cards >= len(numbers)),
                          (boxes < 0) | (boxes >= len(prizes))], axis=1)
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    points = np.array(area["points"], dtype=np.int64)
    dealer_points = np.array(area["dealer_points"], dtype=np.int64)
    card_ok = (cards >= 0) & (cards < len(numbers))
    hand_ok = card_ok.reshape(n, hands, k).all(axis=2) & ((d >= 0) & (d < len(dealer)))[:, None]
    totals = points[np.clip(cards, 0, len(numbers) - 1)].reshape(n, hands, k).sum(axis=2)
    against = dealer_points[np.clip(d, 0, len(dealer) - 1)][:, None]
    won = hand_ok & (totals <= 21) & (totals > against)
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    slots = []
    for h in range(hands):
        box = np.clip(boxes[:, h], 0, len(prizes) - 1)
        slots.append(Slot(won=won[:, h], how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(n, dtype=np.int64), prize=box, cents=cents[box]))
    return slots
