"""A blackjack area's fields tied together (docs/styles/blackjack.md, section 2), refused as poolgen's
loader refuses them (poolgen/styles/blackjack.py, read_area), in its order and words."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_unfit_blackjack"]


def _fail(field: str, why: str) -> UnusableInput:
    return UnusableInput(f"{field}: {why}")


def _group(doc: dict[str, Any], name: object) -> list[dict[str, Any]]:
    return [s for s in doc["symbols"] if s.get("group") == name]


def refuse_unfit_blackjack(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """docs/styles/blackjack.md, section 2: `points` and `dealer_points` one whole number a symbol of
    their group, in range; at least 2 `numbers`; at most 4096 hands a HAND can show; at most 255 symbols a
    group (a uint8 code)."""
    if len(_group(doc, area["numbers"])) < 2:
        raise _fail(f"{where}.numbers", "at least 2 numbers: a hand must be able to win and to lose")
    for key, group, low, high in (("points", "numbers", 1, 99), ("dealer_points", "dealer_totals", 0, 21)):
        size, raw = len(_group(doc, area[group])), area[key]
        if not isinstance(raw, list):
            raise _fail(f"{where}.{key}", f"must be a list, not {raw!r}")
        if not all(type(v) is int for v in raw):
            raise _fail(f"{where}.{key}", f"a list of whole numbers, one per symbol of the group "
                                          f"{area[group]!r}")
        if len(raw) != size:
            raise _fail(f"{where}.{key}", f"{size} numbers for the {size} symbols of {area[group]!r}, "
                                          f"not {len(raw)}")
        for i, v in enumerate(raw):
            if not low <= v <= high:
                raise _fail(f"{where}.{key}[{i}]", f"{low}..{high}, not {v}")
        if key == "points" and size ** area["hand_cards"] > 4096:
            raise _fail(f"{where}.hand_cards", f"{size} symbols in {area['hand_cards']} spots make "
                                               f"{size ** area['hand_cards']} hands; at most 4096")
    k, points, dealer = area["hand_cards"], area["points"], area["dealer_points"]
    if not (dealer and (k * max(points) > 21 or k * min(points) <= max(dealer))):  # a hand over 21, or low
        raise _fail(f"{where}.dealer_points", f"no DEALER'S TOTAL lets all {area['hands']} hands lose: a "
                                              "ticket that wins nothing here needs one")
    if max(len(_group(doc, area[g])) for g in ("numbers", "dealer_totals", "prizes")) > 255:
        raise _fail(where, "more than 255 symbols do not fit a uint8 code")
