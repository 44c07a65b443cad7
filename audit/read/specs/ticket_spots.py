"""A printed ticket's spots: the layout columns of all its areas together, each area's from its style's
contract (section 4), at most 1,024 (`areas: <n> spots on a ticket; at most 1,024`, poolgen's loader's
words and bound)."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput
from audit.read.limits import MAX_TICKET_SPOTS

__all__ = ["area_spots", "refuse_crowded_ticket"]

HAND, HOLE = 5, 2  # cards: a five-card hand; a hold_em hand's own two cards


def _int(area: dict[str, Any], key: str, default: int = 0) -> int:
    value = area.get(key, default)
    return value if type(value) is int else default


def _list(area: dict[str, Any], key: str) -> list[Any]:
    value = area.get(key)
    return value if isinstance(value, list) else []


def _crossword(area: dict[str, Any]) -> int:
    grids = _list(area, "grids")
    cells = sum(row.count(".") for g in grids if isinstance(g, list) for row in g if isinstance(row, str))
    bonus = area.get("bonus")
    length = _int(bonus, "length") if isinstance(bonus, dict) else 0
    return _int(area, "letters") + cells + length + (len(grids) if "doubler" in area else 0)


def area_spots(area: dict[str, Any]) -> int:
    """The layout columns of one area (a spec's [[areas]] table, its fields already checked)."""
    style, n = area.get("style"), _int
    if style in ("add_up", "prize_box"):
        return n(area, "games") * (n(area, "spots") + 1)
    if style == "blackjack":  # the DEALER'S cards, the HANDS' cards, a PRIZE a hand unless pays = "count"
        hands = n(area, "hands")
        return n(area, "dealer_cards", 1) + hands * n(area, "hand_cards") + \
            (0 if area.get("pays") == "count" else hands)
    if style == "keno":  # the WINNING NUMBERS, then each game's numbers
        return n(area, "winning") + sum(g for g in _list(area, "games") if type(g) is int)
    if style in ("bonus_reveal", "match_n", "symbol_count", "ticket_multiplier"):
        return n(area, "spots")
    if style == "cards":
        games, hold_em = n(area, "games"), area.get("deal") == "hold_em"
        own = (HOLE if hold_em else HAND) * games
        if area.get("dealer") == "shared":
            return own + HAND + games
        return 2 * own + (HAND * games if hold_em else 0) + games
    if style == "key_number_match":
        return (0 if "winning_from" in area else n(area, "winning")) + 2 * n(area, "yours")
    if style == "maze":
        return n(area, "rows") * n(area, "cols")
    if style == "poker_hand":
        return HAND
    if style == "yours_beats_theirs":
        return n(area, "pairs") * (4 if "multipliers" in area else 3)
    if style == "bingo":
        return n(area, "calls") + 25 * n(area, "cards")
    if style == "lines":
        shown = len(_list(area, "lines")) if area.get("line_prizes") == "shown" else 0
        return n(area, "rows") * n(area, "cols") + n(area, "calls") + shown
    if style == "crossword":
        return _crossword(area)
    return 0


def refuse_crowded_ticket(doc: dict[str, Any]) -> None:
    """UnusableInput `areas: <n> spots on a ticket; at most 1,024` when a printed spec's areas together
    lay out more columns than a ticket holds."""
    spots = sum(area_spots(a) for a in doc.get("areas", []) if isinstance(a, dict))
    if spots > MAX_TICKET_SPOTS:
        raise UnusableInput(f"areas: {spots:,} spots on a ticket; at most {MAX_TICKET_SPOTS:,}")
