"""audit's play-style engines by the name a manifest gives them, each written from its contract,
docs/styles/<style>.md, alone (audit/styles/interface.py says what an engine is).

AREA_ENGINES: the styles of a printed ticket's play areas (the manifest's `play.areas[*].style`),
evaluated together by audit/styles/play.py. TICKET_ENGINES: the ticket-wide styles, each evaluating
whole shares: the eInstant styles (the manifest's `play.style`). PLAY_FROM_SPEC: the ticket-wide
styles whose contract derives the manifest's `play` entry from the spec. A style not listed has no
engine: `area_engine` and `einstant_engine` say so in one line (a ValueError).
"""

from __future__ import annotations

from audit.styles import (
    add_up,
    area_match,
    bingo,
    blackjack,
    bonus_reveal,
    cards,
    crossword,
    keno,
    key_number_match,
    lines,
    match_n,
    maze,
    poker_hand,
    prize_box,
    prize_legend_duel,
    symbol_count,
    ticket_multiplier,
    yours_beats_theirs,
)
from audit.styles.interface import AreaEngine, PlayFromSpec, TicketEngine

__all__ = ["AREA_ENGINES", "PLAY_FROM_SPEC", "TICKET_ENGINES", "area_engine", "einstant_engine"]

AREA_ENGINES: dict[str, AreaEngine] = {
    "key_number_match": key_number_match,
    "match_n": match_n,
    "bonus_reveal": bonus_reveal,
    "crossword": crossword,
    "symbol_count": symbol_count,
    "prize_box": prize_box,
    "lines": lines,
    "yours_beats_theirs": yours_beats_theirs,
    "add_up": add_up,
    "blackjack": blackjack,
    "cards": cards,
    "poker_hand": poker_hand,
    "bingo": bingo,
    "maze": maze,
    "ticket_multiplier": ticket_multiplier,
    "keno": keno,
}
TICKET_ENGINES: dict[str, TicketEngine] = {
    "area_match": area_match,
    "prize_legend_duel": prize_legend_duel,
}
PLAY_FROM_SPEC: dict[str, PlayFromSpec] = {
    "area_match": area_match.play_from_spec,
    "prize_legend_duel": prize_legend_duel.play_from_spec,
}


def area_engine(style: str) -> AreaEngine:
    """The engine of an area's style; ValueError for a style there is no engine of."""
    engine = AREA_ENGINES.get(style)
    if engine is None:
        raise ValueError(f"manifest play entry: no audit engine for style {style!r}")
    return engine


def einstant_engine(style: object) -> TicketEngine:
    """The engine of an eInstant's ticket-wide style (the manifest's `play.style`); ValueError for a
    style there is no engine of."""
    engine = TICKET_ENGINES.get(style) if isinstance(style, str) else None
    if engine is None:
        raise ValueError(f"manifest play entry: no audit engine for eInstant style {style!r}")
    return engine
