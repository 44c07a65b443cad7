"""Generic play styles, one per contract in docs/styles/<style>.md, registered here by the name a spec
gives (`style = "..."`).

- Area styles (`AREA_STYLES`): a printed ticket is a list of play areas, each of one of these
  (`poolgen.game.play.AreaStyle`): key_number_match, match_n, bonus_reveal.
- Ticket-wide styles (`TICKET_STYLES`): an eInstant share laid out and paid by one style that
  decomposes each prize itself (`poolgen.game.play.TicketStyle`): prize_legend_duel, area_match.

A style is a module (or a package whose `style` module implements it); mypy checks every entry
against its protocol, and tests/test_architecture.py that these names, audit's registry and the
contracts in docs/styles/ are the same.
"""

from __future__ import annotations

from collections.abc import Mapping

from poolgen.game.play import AreaStyle, TicketStyle
from poolgen.styles import bonus_reveal, key_number_match
from poolgen.styles.area_match import style as area_match
from poolgen.styles.match_n import style as match_n
from poolgen.styles.prize_legend_duel import style as prize_legend_duel

__all__ = ["AREA_STYLES", "TICKET_STYLES"]

AREA_STYLES: Mapping[str, AreaStyle] = {
    "key_number_match": key_number_match,
    "match_n": match_n,
    "bonus_reveal": bonus_reveal,
}
TICKET_STYLES: Mapping[str, TicketStyle] = {
    "prize_legend_duel": prize_legend_duel,
    "area_match": area_match,
}
