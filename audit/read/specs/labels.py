"""An area's `labels`: one title a section its style draws (docs/new-game.md, (f)), refused when another
count, as poolgen's loader refuses it, naming the field: one section for bonus_reveal, match_n, maze and
ticket_multiplier; two for symbol_count (its symbols, its legend) and poker_hand (the hand, the chart);
a lines area's grid and prizes, and with `calls` its caller's pictures between them; one a game for
prize_box, one a pair for yours_beats_theirs; a crossword's in grids.py; key_number_match's WINNING
NUMBERS and YOUR NUMBERS (only the latter with `winning_from` or no winning numbers); one a game for
add_up; for cards, per game YOUR HAND and the DEALER'S HAND (hold_em: and the COMMUNITY CARDS), or with
a shared dealer the DEALER'S HAND and one a game; for bingo, each card, each custom pattern's picture,
the CALLER'S NUMBERS and the PATTERNS; for blackjack, the DEALER'S TOTAL (or HAND) and one a hand, and
with `pays = "count"` the legend last."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_label_count"]

_ONE = frozenset({"bonus_reveal", "match_n", "maze", "ticket_multiplier"})


def _sections(area: dict[str, Any]) -> int | None:
    style = area["style"]
    if style in _ONE:
        return 1
    if style in ("symbol_count", "poker_hand"):
        return 2
    if style == "lines":
        return 3 if "calls" in area else 2
    if style == "prize_box":
        return int(area["games"])
    if style == "yours_beats_theirs":
        return int(area["pairs"])
    return _drawn_per_part(area)


def _drawn_per_part(area: dict[str, Any]) -> int | None:
    style = area["style"]
    if style == "key_number_match":
        return 1 if "winning_from" in area or area.get("winning") == 0 else 2
    if style == "add_up":
        return int(area["games"])
    if style == "cards":
        if area.get("dealer") == "shared":
            return 1 + int(area["games"])
        return int(area["games"]) * (3 if area.get("deal") == "hold_em" else 2)
    if style == "bingo":
        listed = area.get("patterns")
        patterns = listed if isinstance(listed, list) else []
        return int(area["cards"]) + sum(isinstance(p, dict) and bool({"name", "cells"} & set(p))
                                        for p in patterns) + 2
    if style == "blackjack":  # with pays = "count", the legend last (blackjack.md section 10)
        return 1 + int(area["hands"]) + (area.get("pays") == "count")
    return None


def refuse_label_count(area: dict[str, Any], where: str) -> None:
    """UnusableInput `areas[i].labels: <n> title(s) for the area's <m> section(s)` when an area of a
    style listed above has `labels` of another length than its sections."""
    labels, sections = area.get("labels"), _sections(area)
    if isinstance(labels, list) and sections is not None and len(labels) != sections:
        raise UnusableInput(f"{where}.labels: {len(labels)} title(s) for the area's {sections} section(s)")
