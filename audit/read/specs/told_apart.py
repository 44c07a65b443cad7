"""Symbols a player cannot tell apart (docs/new-game.md, section 2, "Symbols are told apart"): the spots
of an area never print one `symbol` text for two symbols, refused as poolgen's loader refuses it, naming
the same field in the same words. Written from that section's table of each style's spot rules: the
prefix of a rule, then the area fields whose groups its spots show, in order. A rule showing only
groups an earlier rule of its style shows never finds a pair first and is left out (bingo's cards, a
lines caller's `_call_`, a crossword's `_cell_` and `_bonus_`, yours_beats_theirs' `_theirs_`); a
style's own symbols (a cards or poker_hand deck, a crossword's doubler cell numbers) never print alike and
are left out too."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_look_alikes"]

# style -> its spot rules in the table's order: (prefix, the area fields whose groups its spots show)
SPOT_RULES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "add_up": (("_spot_", ("numbers",)), ("_prize_", ("prizes",))),
    "bingo": (("_call_", ("numbers",)),),
    "blackjack": (("_dealer_", ("dealer_totals",)), ("_card_", ("numbers",)), ("_prize_", ("prizes",))),
    "bonus_reveal": (("_spot_", ("pictures", "prizes")),),
    "cards": (("_prize_", ("prizes",)),),
    "crossword": (("_letter_", ("alphabet",)),),
    "key_number_match": (("_win_", ("numbers",)), ("_your_", ("numbers", "specials")),
                         ("_prize_", ("prizes",))),
    "lines": (("_cell_", ("pictures",)), ("_prize_", ("prizes",))),
    "match_n": (("_spot_", ("prizes", "multipliers")),),
    "maze": (("_cell_", ("arrows",)),),
    "poker_hand": (),  # its only spots show its deck (docs/styles/poker_hand.md, section 4)
    "prize_box": (("_spot_", ("pictures",)), ("_prize_", ("prizes",))),
    "symbol_count": (("_spot_", ("pictures",)),),
    "ticket_multiplier": (("_spot_", ("pictures", "multipliers")),),
    "yours_beats_theirs": (("_yours_", ("numbers",)), ("_prize_", ("prizes",)),
                           ("_mult_", ("multipliers",))),
    "keno": (("_win_", ("numbers",)),),
}


def _rules(area: dict[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    rules = SPOT_RULES.get(str(area.get("style")), ())
    if (area.get("style") == "lines" and area.get("line_prizes") != "shown"  # no prize spots printed
            or area.get("style") == "blackjack" and area.get("pays") == "count"):  # blackjack.md section 10
        rules = tuple(r for r in rules if r[0] != "_prize_")
    return rules


def refuse_look_alikes(doc: dict[str, Any]) -> None:
    """UnusableInput `symbols[j].symbol: ... a player cannot tell them apart` for the first symbol, in
    the areas' order and each area's spot rules' order, whose text an earlier symbol of its spots prints."""
    indexed = list(enumerate(doc["symbols"]))
    for area in doc["areas"]:
        for prefix, fields in _rules(area):
            shown = [(i, s) for field in fields if field in area
                     for i, s in indexed if s["group"] == area[field]]
            seen: dict[str, tuple[int, dict[str, Any]]] = {}
            for j, s in shown:
                i, other = seen.setdefault(s["symbol"], (j, s))
                if i != j:
                    text = s["symbol"][:80]
                    raise UnusableInput(f"symbols[{j}].symbol: {text!r} is printed for symbols[{i}] too "
                                        f"(group {other['group']!r}, code {other['code']!r}), and the spots "
                                        f"{area['id']}{prefix}* show both: a player cannot tell them apart")
