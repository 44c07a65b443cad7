"""Step 8's no-information features of a style-based run, keyed by style and computed from the
manifest's `play` entry (docs/styles/play.md) and the pool's columns and tier counts alone: each
style's contract (docs/styles/<style>.md, its no-information section) states what its features test.

amounts.py: match_n, key_number_match, bonus_reveal, ticket_multiplier (and maze, which promises
no feature: it says so); games.py: prize_box, yours_beats_theirs, keno,
add_up, cards (what a game that does not win shows); pictures.py: symbol_count, lines, bingo,
crossword. Each style's function returns (chi-square features (name, codes), classifier blocks (name,
block), what is not tested); a code below 0 leaves its row out. A style with no entry here is named
as not tested.
"""

from __future__ import annotations

from typing import Any

from audit.stats.styles import amounts, games, pictures
from audit.stats.styles.kinds import AreaFeatures, Blocks, Columns, Feature, Get, Tests

__all__ = ["COLUMNS", "STYLES", "AreaFeatures", "Blocks", "Feature", "Get", "Tests", "style_columns",
           "style_features"]

# By style name: (features, the columns they read), looked up with whatever an area's `style` holds
# (what is no style finds nothing).
_BY_STYLE: dict[object, tuple[Feature, Columns]] = {
    "match_n": (amounts.match_n, amounts.match_n_columns),
    "key_number_match": (amounts.key_number_match, amounts.key_number_columns),
    "bonus_reveal": (amounts.bonus_reveal, amounts.bonus_reveal_columns),
    "prize_box": (games.prize_box, games.prize_box_columns),
    "yours_beats_theirs": (games.yours_beats_theirs, games.yours_beats_theirs_columns),
    "keno": (games.keno, games.keno_columns),
    "add_up": (games.add_up, games.add_up_columns),
    "cards": (games.cards, games.cards_columns),
    "blackjack": (games.blackjack, games.blackjack_columns),
    "symbol_count": (pictures.symbol_count, pictures.symbol_count_columns),
    "lines": (pictures.lines, pictures.lines_columns),
    "bingo": (pictures.bingo, pictures.bingo_columns),
    "crossword": (pictures.crossword, pictures.crossword_columns),
    "ticket_multiplier": (amounts.ticket_multiplier, amounts.ticket_multiplier_columns),
    "maze": (amounts.maze, amounts.maze_columns),
}
STYLES: dict[object, Feature] = {style: pair[0] for style, pair in _BY_STYLE.items()}
COLUMNS: dict[object, Columns] = {style: pair[1] for style, pair in _BY_STYLE.items()}


def style_columns(play: dict[str, Any]) -> tuple[str, ...]:
    """The columns the features read; a malformed area is left to the features, which report it."""
    cols: list[str] = []
    for a in play["areas"]:
        if isinstance(a, dict) and a.get("style") in COLUMNS and isinstance(a.get("id"), str):
            try:
                cols += COLUMNS[a["style"]](a)
            except (KeyError, TypeError, ValueError, AttributeError):
                continue
    return tuple(dict.fromkeys(cols))


def style_features(play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """Every area's features, every area's classifier blocks ((name, block)), and what is not tested."""
    chi: Tests = []
    blocks: Blocks = []
    skipped: list[str] = []
    for area in play["areas"]:
        if not isinstance(area, dict):
            raise ValueError(f"the play entry's area {area!r} is not an object")
        feature = STYLES.get(area.get("style"))
        if feature is None:
            skipped.append(f"layout: area {area.get('id')!r}: no no-information tests for style "
                           f"{area.get('style')!r}")
            continue
        more, mine, why = feature(area, play, counts, get)
        chi += more
        blocks += mine
        skipped += why
    return chi, blocks, skipped
