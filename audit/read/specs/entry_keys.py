"""The keys a manifest's `play` entry may hold for an area, by style, and for a symbol of a group (each
style's contract, docs/styles/<style>.md, section 3): read by step 5 (audit/read/specs/printed.py) and by
the manifest's field check (audit/read/fields.py)."""

from __future__ import annotations

__all__ = ["ENTRY_KEYS", "SYMBOL_KEYS"]

# Every key an area's entry in the manifest's `play` may hold beside `id` and `style`, by style (each
# style's contract, docs/styles/<style>.md, section 3): a key the spec's area leaves out is one of these,
# its default; any other is not the game's rules, and a field the manifest publishes (docs/manifest.md).
ENTRY_KEYS: dict[str, frozenset[str]] = {style: frozenset(keys.split()) for style, keys in {
    "add_up": "games spots numbers target reach prizes",
    "bingo": "numbers cards free calls patterns prizes",
    "blackjack": "hands hand_cards numbers points dealer_totals dealer_points prizes dealer_cards pays "
                 "legend",
    "bonus_reveal": "spots prizes pictures most_alike",
    "cards": "games deck ranking prizes ties deal dealer",
    "poker_hand": "deck ranking chart prizes joker five_of_a_kind joker_multiplier",
    "crossword": "letters alphabet grids prizes legend legends words bonus doubler",
    "key_number_match": "winning yours numbers prizes specials match_by winning_from distinct_numbers "
                        "decoy_weights",
    "lines": "rows cols pictures symbol symbols lines prizes legend line_prizes calls",
    "match_n": "spots match prizes multipliers",
    "maze": "rows cols arrows starts exits prizes",
    "prize_box": "games spots match pictures prizes",
    "symbol_count": "spots pictures symbol prizes legend most_alike",
    "ticket_multiplier": "spots pictures multipliers multipliers_on_losers multiplies",
    "yours_beats_theirs": "pairs numbers prizes ties multipliers",
    "keno": "winning numbers prizes games key",
}.items()}
SYMBOL_KEYS = frozenset({"code", "how", "by", "cents"})  # a symbol of a group, as an entry lists it
