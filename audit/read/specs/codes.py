"""An area's symbol groups fit its uint8 code columns (each style's contract, section 4: columns all
uint8): at most 255 symbols a column can hold, refused in the words of poolgen's loader. The groups
one column holds together are counted together (key_number_match's numbers and specials in a YOUR spot,
bonus_reveal's pictures and prizes in a spot, match_n's prizes and multipliers, ticket_multiplier's
pictures and multipliers)."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_wide_groups"]

# style: (the groups one code column holds together, ...), what the loader calls them
_COLUMNS: dict[str, tuple[tuple[tuple[str, ...], ...], str]] = {
    "add_up": ((("numbers",), ("prizes",)), "symbols"),
    "blackjack": ((("numbers",), ("dealer_totals",), ("prizes",)), "symbols"),
    "bonus_reveal": ((("pictures", "prizes"),), "symbols"),
    "cards": ((("prizes",),), "symbols"),
    "key_number_match": ((("numbers", "specials"), ("prizes",)), "symbols of one kind"),
    "match_n": ((("prizes", "multipliers"),), "symbols"),
    "prize_box": ((("pictures",), ("prizes",)), "symbols"),
    "symbol_count": ((("pictures",),), "pictures"),
    "ticket_multiplier": ((("pictures", "multipliers"),), "symbols"),
    "yours_beats_theirs": ((("numbers",), ("prizes",)), "symbols"),
}


def refuse_wide_groups(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """UnusableInput `areas[i]: more than 255 symbols do not fit a uint8 code` when the groups one of
    the area's code columns holds together list more than 255 symbols."""
    columns, words = _COLUMNS.get(area["style"], ((), ""))
    listed = doc.get("symbols")
    symbols = listed if isinstance(listed, list) else []
    for keys in columns:
        groups = [area[k] for k in keys if isinstance(area.get(k), str)]
        if sum(isinstance(s, dict) and s.get("group") in groups for s in symbols) > 255:
            raise UnusableInput(f"{where}: more than 255 {words} do not fit a uint8 code")
