"""Generic play styles, one per contract in docs/styles/<style>.md, registered here by the name a spec
gives (`style = "..."`).

- Area styles (`AREA_STYLES`): a printed ticket is a list of play areas, each of one of these
  (`poolgen.game.play.AreaStyle`): key_number_match, match_n, bonus_reveal, crossword, symbol_count,
  prize_box, lines, yours_beats_theirs, add_up, blackjack, cards, poker_hand, bingo, maze, keno,
  ticket_multiplier (a BONUS box whose symbol multiplies every other win of the ticket).
- Ticket-wide styles (`TICKET_STYLES`): an eInstant share laid out and paid by one style that
  decomposes each prize itself (`poolgen.game.play.TicketStyle`): prize_legend_duel, area_match.

A style is a module (or a package whose `style` module implements it); mypy checks every entry
against its protocol, with the style's own parameters (what its reader returns is what every other
function takes), and tests/test_architecture.py that these names, audit's registry and the
contracts in docs/styles/ are the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from poolgen.game.play import AreaStyle, ShownPrizes, TicketStyle
from poolgen.styles import (
    add_up,
    blackjack,
    bonus_reveal,
    cards,
    keno,
    key_number_all,
    key_number_match,
    maze,
    poker_hand,
    prize_box,
    symbol_count,
    ticket_multiplier,
    yours_beats_theirs,
)
from poolgen.styles.area_match import params as area_match_params
from poolgen.styles.area_match import style as area_match
from poolgen.styles.bingo import style as bingo
from poolgen.styles.crossword import style as crossword
from poolgen.styles.lines import style as lines
from poolgen.styles.match_n import style as match_n
from poolgen.styles.prize_legend_duel import params as prize_legend_duel_params
from poolgen.styles.prize_legend_duel import style as prize_legend_duel

__all__ = ["AREA_STYLES", "SHOWN_PRIZES", "TICKET_STYLES"]

# Each module as its protocol of its own parameters: mypy proves it implements the interface.
_KEY_NUMBER_MATCH: AreaStyle[key_number_match.Params] = key_number_match
_MATCH_N: AreaStyle[match_n.Params] = match_n
_BONUS_REVEAL: AreaStyle[bonus_reveal.Params] = bonus_reveal
_CROSSWORD: AreaStyle[crossword.Params] = crossword
_SYMBOL_COUNT: AreaStyle[symbol_count.Params] = symbol_count
_PRIZE_BOX: AreaStyle[prize_box.Params] = prize_box
_LINES: AreaStyle[lines.Params] = lines
_YOURS_BEATS_THEIRS: AreaStyle[yours_beats_theirs.Params] = yours_beats_theirs
_ADD_UP: AreaStyle[add_up.Params] = add_up
_BLACKJACK: AreaStyle[blackjack.Params] = blackjack
_CARDS: AreaStyle[cards.Params] = cards
_POKER_HAND: AreaStyle[poker_hand.Params] = poker_hand
_BINGO: AreaStyle[bingo.Params] = bingo
_MAZE: AreaStyle[maze.Params] = maze
_KENO: AreaStyle[keno.Params] = keno
_TICKET_MULTIPLIER: AreaStyle[ticket_multiplier.Params] = ticket_multiplier
_PRIZE_LEGEND_DUEL: TicketStyle[prize_legend_duel_params.Params] = prize_legend_duel
_AREA_MATCH: TicketStyle[area_match_params.Params] = area_match

AREA_STYLES: Mapping[str, AreaStyle[Any]] = {
    "key_number_match": _KEY_NUMBER_MATCH,
    "match_n": _MATCH_N,
    "bonus_reveal": _BONUS_REVEAL,
    "crossword": _CROSSWORD,
    "symbol_count": _SYMBOL_COUNT,
    "prize_box": _PRIZE_BOX,
    "lines": _LINES,
    "yours_beats_theirs": _YOURS_BEATS_THEIRS,
    "add_up": _ADD_UP,
    "cards": _CARDS,
    "bingo": _BINGO,
    "maze": _MAZE,
    "ticket_multiplier": _TICKET_MULTIPLIER,
    "poker_hand": _POKER_HAND,
    "blackjack": _BLACKJACK,
    "keno": _KENO,
}
# The area styles whose wins may pin the prizes the area shows (a tier's `shows`): a spec's `shows`
# on a win of any other style is refused by the loader.
_KEY_NUMBER_SHOWS: ShownPrizes[key_number_match.Params] = key_number_all.read_pinned
SHOWN_PRIZES: Mapping[str, ShownPrizes[Any]] = {"key_number_match": _KEY_NUMBER_SHOWS}
TICKET_STYLES: Mapping[str, TicketStyle[Any]] = {
    "prize_legend_duel": _PRIZE_LEGEND_DUEL,
    "area_match": _AREA_MATCH,
}
