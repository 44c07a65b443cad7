"""What a ticket's layout pays, evaluated for the proof pages by the face of the game's play
(poolgen/pdf/faces/): the prize, the lines that explain it and the spots that win; and the layout
columns a proof page reads."""

from __future__ import annotations

from poolgen.game.model import Game, Printed
from poolgen.pdf.faces import face_of
from poolgen.pdf.faces.common import Evaluation, Row

__all__ = ["Evaluation", "evaluate", "required_columns"]


def evaluate(game: Game, pool: Row, row: Row) -> Evaluation:
    """What a ticket's layout pays under its styles' contracts (docs/styles/)."""
    return face_of(game).evaluate(game, pool, row)


def required_columns(game: Game, pool: Row) -> list[str]:
    """Every column a proof page of this pool reads: the common ones, then the game's layout."""
    ids = ["book", "ticket_no"] if isinstance(game.sales, Printed) else ["serial"]
    return ["position", "ticket", "tier", "prize_cents", *ids, *face_of(game).columns(game, pool)]
