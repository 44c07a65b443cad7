"""Ticket faces on the proof pages, one module per kind of play, each a `Face`
(poolgen/pdf/faces/common.py): a game of play areas (`areas`), or a ticket-wide style's own face
(`TICKET_FACES`, by style name: the same names as `poolgen.styles.TICKET_STYLES`)."""

from __future__ import annotations

from collections.abc import Mapping

from poolgen.game.model import Game
from poolgen.game.play import AreaPlay, TicketPlay
from poolgen.pdf.faces import area_match, areas, prize_legend_duel
from poolgen.pdf.faces.common import Face

__all__ = ["TICKET_FACES", "face_of"]

TICKET_FACES: Mapping[str, Face] = {
    "prize_legend_duel": prize_legend_duel,
    "area_match": area_match,
}


def face_of(game: Game) -> Face:
    """The face a game's tickets are drawn and explained with."""
    play = game.play
    if isinstance(play, AreaPlay):
        return areas
    if isinstance(play, TicketPlay):
        return TICKET_FACES[play.style]
    raise TypeError(f"{game.path.name}: no face for {type(play).__name__}")
