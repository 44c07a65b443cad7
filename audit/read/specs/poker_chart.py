"""A poker_hand area's chart held to docs/styles/poker_hand.md, section 2, as poolgen's loader holds it
(audit/read/specs/area_fields.py reads the area's other fields first)."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput


def _fail(field: str, why: str) -> UnusableInput:
    return UnusableInput(f"{field}: {why}")


def _group(doc: dict[str, Any], name: object) -> list[dict[str, Any]]:
    return [s for s in doc["symbols"] if s.get("group") == name]


# docs/styles/poker_hand.md, section 5: the RANKS a chart lists, best first (the last: any pair's name)
POKER_RANKS = ("five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
               "straight", "three_of_a_kind", "two_pair", "jacks_or_better")
POKER_PAIRS = tuple(f"{p}_or_better" for p in ("twos", "threes", "fours", "fives", "sixes", "sevens",
                                                "eights", "nines", "tens", "jacks", "queens", "kings",
                                                "aces"))


def refuse_unfit_chart(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """docs/styles/poker_hand.md, section 2: `five_of_a_kind` and `joker_multiplier` only with the JOKER;
    the chart pays from the best RANK the deck makes (with the JOKER five_of_a_kind unless
    `five_of_a_kind = false`, else royal_flush) down, each once, the one-pair line any pair's, each a prize
    of the area (no free ticket with a multiplier), no prize twice."""
    for key, why in (("five_of_a_kind", "without the JOKER no hand is five of a kind"),
                     ("joker_multiplier", "without the JOKER no hand shows it")):
        if key in area and area.get("joker") is not True:
            raise _fail(f"{where}.{key}", f"only with joker = true ({why})")
    ranks = POKER_RANKS if area.get("joker") and area.get("five_of_a_kind") is not False else POKER_RANKS[1:]
    symbols = _group(doc, area["prizes"])
    codes = [s.get("code") for s in symbols]
    k = area.get("joker_multiplier", 1)
    paid: list[object] = []
    for i, item in enumerate(area["chart"]):
        at = f"{where}.chart[{i}]"
        if not isinstance(item, dict) or set(item) != {"hand", "prize"}:
            raise _fail(at, "must be a table { hand, prize }")
        pair = i == len(ranks) - 1 and item["hand"] in POKER_PAIRS
        if i >= len(ranks) or (item["hand"] != ranks[i] and not pair):
            said = "nothing: the chart has every rank" if i >= len(ranks) else repr(ranks[i])
            said += " (or another pair's: 'twos_or_better' to 'aces_or_better')" \
                if i == len(ranks) - 1 else ""
            raise _fail(f"{at}.hand", f"{str(item['hand'])[:80]!r}, but a chart pays from the best rank "
                                      f"down: here {said}")
        if not isinstance(item["prize"], str) or item["prize"] not in codes:
            raise _fail(f"{at}.prize", "not one of the area's prize symbols")
        if k > 1 and any(s.get("code") == item["prize"] and s.get("free") for s in symbols):
            raise _fail(f"{at}.prize", f"{item['prize']!r} is a free ticket, which a JOKER hand cannot win "
                                       f"{k} times (joker_multiplier)")
        if item["prize"] in paid:
            raise _fail(f"{at}.prize", f"{item['prize']!r} is paid for another hand too (a win's prize names "
                                       "its hand)")
        paid.append(item["prize"])
    if not paid:
        raise _fail(f"{where}.chart", "list the hands that pay, best first, each with its prize")
