"""Key number match, evaluated from docs/styles/key_number_match.md (sections 3 to 5) alone: rules 1 to
8 of section 5, in that order (5 and 6, section 8.1, only with `distinct_numbers`; 7 and 8 only with
a win-all symbol)."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns, show


def _list(area: dict[str, Any], key: str) -> list[Any]:
    value = area.get(key)
    if not isinstance(value, list):
        raise ValueError(f"manifest play entry: area {area.get('id')!r}: {key} is not a list")
    return value


def _int(area: dict[str, Any], key: str, low: int) -> int:
    value = area.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"manifest play entry: area {area.get('id')!r}: {key} is not a whole "
                         f"number >= {low}")
    return value


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    w_count, y_count, match_by = _int(area, "winning", 0), _int(area, "yours", 1), _int(area, "match_by", 1)
    n_numbers = len(_list(area, "numbers"))
    if len(_list(area, "prizes")) > 256:
        raise ValueError(f"manifest play entry: area {aid!r}: more than 256 prize symbols")
    if not _list(area, "prizes"):
        raise ValueError(f"manifest play entry: area {aid!r}: no prize symbols")
    cents = np.array([int(p["cents"]) for p in _list(area, "prizes")], dtype=np.int64)
    specials = _list(area, "specials")
    if any(not isinstance(s, dict) or s.get("how") not in ("automatic", "multiplier", "all")
           for s in specials):
        raise ValueError(f"manifest play entry: area {aid!r}: a special symbol is neither automatic, "
                         "multiplier nor all")
    whole = [i for i, s in enumerate(specials) if s["how"] == "all"]
    if len(whole) > 1 or whole and (y_count * int(cents.max()) >= 1 << 40 or "decoy_weights" in area):
        raise ValueError(f"manifest play entry: area {aid!r}: more than one win-all symbol, or one beside "
                         f"decoy_weights or {y_count} prizes that could reach 2^40 cents")
    s_how = np.array([HOWS.index(s["how"]) for s in specials] or [0], dtype=np.int64)
    s_by = np.array([int(s["by"]) if s["how"] == "multiplier" else 1 for s in specials] or [1],
                    dtype=np.int64)
    source = area.get("winning_from", aid)  # an area may match another area's WINNING NUMBERS
    if not isinstance(source, str):
        raise ValueError(f"manifest play entry: area {aid!r}: winning_from is not an area id")
    win = int_columns(table, [f"{source}_win_{i}" for i in range(w_count)]).astype(np.int64)
    your = int_columns(table, [f"{aid}_your_{j}" for j in range(y_count)]).astype(np.int64)
    prize = int_columns(table, [f"{aid}_prize_{j}" for j in range(y_count)]).astype(np.int64)

    own = source == aid  # another area's winning numbers are judged with that area
    bad_win = ((win < 0) | (win >= n_numbers)).any(axis=1) & own
    bad_your = ((your < 0) | (your >= n_numbers + len(specials))).any(axis=1)
    bad_prize = ((prize < 0) | (prize >= len(cents))).any(axis=1)
    reasons.add(bad_win, lambda r: f"{aid}: a winning number code out of range "
                                   f"({', '.join(show(v) for v in win[r])})")
    reasons.add(bad_your, lambda r: f"{aid}: a your-number code out of range "
                                    f"({', '.join(show(v) for v in your[r])})")
    reasons.add(bad_prize, lambda r: f"{aid}: a prize code out of range "
                                     f"({', '.join(show(v) for v in prize[r])})")
    same = np.zeros(table.height, dtype=bool)
    for i in range(w_count if own else 0):
        for j in range(i + 1, w_count):
            same |= win[:, i] == win[:, j]
    reasons.add(same, lambda r: f"{aid}: two winning numbers are equal")

    distinct = area.get("distinct_numbers", False)
    if not isinstance(distinct, bool):
        raise ValueError(f"manifest play entry: area {aid!r}: distinct_numbers is not true or false")
    # Section 5: a YOUR NUMBER matches only while every WINNING NUMBER is in range (a null too is out
    # of it), and a spot whose prize code is out of range wins nothing.
    all_in = np.all((win >= 0) & (win < n_numbers), axis=1, keepdims=True)
    matches = np.stack([(your[:, [j]] == win).any(axis=1) for j in range(y_count)], axis=1)
    matches &= (your >= 0) & (your < n_numbers) & all_in
    if distinct:
        _spread(aid, win, your, n_numbers, matches, reasons)

    priced = (prize >= 0) & (prize < len(cents))
    shown = np.where(priced, cents[np.clip(prize, 0, len(cents) - 1)], 0)
    is_all = your == n_numbers + whole[0] if whole else np.zeros(your.shape, dtype=bool)
    first = np.where(is_all.any(axis=1), np.argmax(is_all, axis=1), -1)  # the spot that wins all
    special = (your >= n_numbers) & (your < n_numbers + len(specials))
    _win_all(aid, is_all, (matches | special) & ~is_all, reasons)
    slots = []
    for j in range(y_count):
        s = np.clip(your[:, j] - n_numbers, 0, len(s_how) - 1)
        how = np.where(special[:, j], s_how[s], HOWS.index("match"))
        by = np.where(special[:, j], s_by[s], match_by)
        won = (matches[:, j] | special[:, j]) & priced[:, j] & (first < 0)
        slots.append(Slot(won=won | (first == j), how=how, by=by.astype(np.int64),
                          prize=np.clip(prize[:, j], 0, len(cents) - 1),
                          cents=np.where(first == j, shown.sum(axis=1), shown[:, j])))
    return slots


def _win_all(aid: str, is_all: np.ndarray, other: np.ndarray, reasons: Reasons) -> None:
    """Rules 7 and 8: a win-all symbol shows alone, and beside no other win of the area."""
    count = is_all.sum(axis=1)
    reasons.add(count > 1, lambda r: f"{aid}: {int(count[r])} win-all symbols")
    beside = (count > 0) & other.any(axis=1)
    reasons.add(beside, lambda r: f"{aid}: a win-all symbol beside {int(other[r].sum())} other win(s)")


def _spread(aid: str, win: np.ndarray, your: np.ndarray, n_numbers: int, matched: np.ndarray,
            reasons: Reasons) -> None:
    """Section 8.1: YOUR NUMBERS that match no WINNING NUMBER are pairwise distinct, and the k that
    match use every WINNING NUMBER floor(k/W) or ceil(k/W) times ("match" as section 5 reads it:
    `matched`, so nothing matches beside a WINNING NUMBER out of range)."""
    w_count = win.shape[1]
    is_number = (your >= 0) & (your < n_numbers)
    if w_count:  # a key symbol game (no WINNING NUMBER) has no match to spread
        hits = np.stack([(your == win[:, [i]]) & matched for i in range(w_count)], axis=1).sum(axis=2)
        k = matched.sum(axis=1)  # the YOUR NUMBERS that match, each once (equal WINNING NUMBERS share one)
        uneven = ((hits < (k // w_count)[:, None]) | (hits > (-(-k // w_count))[:, None])).any(axis=1)
        reasons.add(uneven, lambda r: f"{aid}: {int(k[r])} matches use the WINNING NUMBERS unevenly "
                                      f"({', '.join(str(int(h)) for h in hits[r])} times)")
    losing = np.where(is_number & ~matched, your, -1 - np.arange(your.shape[1]))  # others never equal
    ordered = np.sort(losing, axis=1)
    repeat = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    reasons.add(repeat, lambda r: f"{aid}: a YOUR NUMBER that matches nothing shows twice")
