"""Which symbol code each stored spot code of a printed ticket shows (docs/validation.md, section 4),
from the manifest's `play` entry alone: a layout column `<area id><suffix><n>` stores an index into
the area's symbol lists named below, in that order (`match_n`'s `_spot_` columns index its `prizes`
then its `multipliers`); a `cards` area's `cards` are the 52 cards of docs/styles/cards.md, section 4;
a `bingo` area's card k (k < its `cards`) has the columns `<id>_card<k>_<n>`; a `crossword` area's
`_doubler_` columns index `cells`, the numbers 0 .. C - 1 of a grid's letter cells (C the most letter
cells of its grids; docs/styles/crossword.md, section 11), each shown as its number, no caption.

Step 9 holds every imaging file's code columns to it: the code the press prints on a spot must be the
one the rules engines evaluated (step 4), so that no ticket shows a win its prize is not.
"""

from __future__ import annotations

from typing import Any

from audit.styles.cards import deck_codes

__all__ = ["SPOTS", "cell_numbers", "spot_codes", "spot_lists"]

SPOTS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "add_up": (("_spot_", ("numbers",)), ("_prize_", ("prizes",))),
    "blackjack": (("_dealer_", ("dealer_totals",)), ("_card_", ("numbers",)), ("_prize_", ("prizes",))),
    "bingo": (("_call_", ("numbers",)), ("_card#_", ("numbers",))),  # card k's: `_card<k>_`, k < cards
    "bonus_reveal": (("_spot_", ("pictures", "prizes")),),
    "cards": (("_yours_", ("cards",)), ("_dealer_", ("cards",)), ("_community_", ("cards",)),
              ("_prize_", ("prizes",))),
    "crossword": (("_letter_", ("alphabet",)), ("_cell_", ("alphabet",)), ("_bonus_", ("alphabet",)),
                  ("_doubler_", ("cells",))),
    "key_number_match": (("_win_", ("numbers",)), ("_your_", ("numbers", "specials")),
                         ("_prize_", ("prizes",))),
    "lines": (("_cell_", ("pictures",)), ("_call_", ("pictures",)), ("_prize_", ("prizes",))),
    "match_n": (("_spot_", ("prizes", "multipliers")),),
    "maze": (("_cell_", ("arrows",)),),
    "poker_hand": (("_card_", ("cards",)),),  # with `joker`, code 52 the JOKER (docs/styles/poker_hand.md 4)
    "prize_box": (("_spot_", ("pictures",)), ("_prize_", ("prizes",))),
    "symbol_count": (("_spot_", ("pictures",)),),
    "ticket_multiplier": (("_spot_", ("pictures", "multipliers")),),
    "yours_beats_theirs": (("_yours_", ("numbers",)), ("_theirs_", ("numbers",)), ("_prize_", ("prizes",)),
                           ("_mult_", ("multipliers",))),  # `_mult_` with `multipliers` only
    "keno": (("_win_", ("numbers",)), ("_spot_", ("numbers",))),
}


def cell_numbers(grids: object) -> list[str]:
    """A crossword doubler column's codes: "0" .. "C-1", C the most letter cells of the area's grids."""
    sizes = [sum(r.count(".") for r in g if isinstance(r, str)) for g in grids if isinstance(g, list)] \
        if isinstance(grids, list) else []
    return [str(i) for i in range(max(sizes, default=0))]


def _code(item: object) -> str | None:
    """A symbol's code as a list of the play entry holds it: the code itself or {"code": ...}."""
    code = item.get("code") if isinstance(item, dict) else item
    return code if isinstance(code, str) else None


def _rules(play: object) -> list[tuple[str, str, tuple[str, ...], list[str | None]]]:
    """(column prefix, area id, the lists its values index, their codes in order) for every spot rule
    of the play entry's areas."""
    rules: list[tuple[str, str, tuple[str, ...], list[str | None]]] = []
    areas = play.get("areas") if isinstance(play, dict) else None
    for area in areas if isinstance(areas, list) else []:
        if not isinstance(area, dict):
            continue
        for suffix, lists in SPOTS.get(str(area.get("style")), ()):
            codes: list[str | None] = []
            for name in lists:
                joker = ["JOKER"] if area.get("style") == "poker_hand" and area.get("joker") is True else []
                items: Any = deck_codes() + joker if name == "cards" else \
                    cell_numbers(area.get("grids")) if name == "cells" else area.get(name)
                codes += [_code(i) for i in (items if isinstance(items, list) else [])]
            cards = area.get("cards")
            for k in range(cards if isinstance(cards, int) and "#" in suffix else 1):
                rules.append((f"{area.get('id')}{suffix.replace('#', str(k))}", str(area.get("id")), lists,
                              codes))
    return rules


def _rule(rules: list[tuple[str, str, tuple[str, ...], list[str | None]]], column: str) \
        -> tuple[str, str, tuple[str, ...], list[str | None]] | None:
    found = [r for r in rules if column.startswith(r[0]) and column[len(r[0]):].isdigit()]
    return found[0] if found else None


def spot_codes(play: object, columns: list[str]) -> dict[str, list[str | None]] | None:
    """Each layout column's codes by stored value; None when a column has no rule (not a printed game
    of play areas, or a style without one: such a game has no imaging file)."""
    rules, out = _rules(play), {}
    for column in columns:
        rule = _rule(rules, column)
        if rule is None:
            return None
        out[column] = rule[3]
    return out


def spot_lists(play: object, columns: list[str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each layout column with a rule: (its area's id, the names of the lists its values index), so
    that step 9 holds a spot to the symbols of those lists' groups in the spec, not to any symbol of
    the spec (a `10` of the numbers printed where the $10.00 of the prizes belongs)."""
    rules = _rules(play)
    return {c: (rule[1], rule[2]) for c in columns if (rule := _rule(rules, c)) is not None}
