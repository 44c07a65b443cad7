"""`check_spec(game)`: every pool's figures, reconciled with what the regulation publishes for how the
game is sold (`check_printed`, `check_einstant`), then what its play must prove or note about laying
every tier out (`Play.check`: a style's own proof, e.g. that every tier decomposes); for a printed
game, what its pack parameters do to each pool and that they can be met (`check_packs`); for an
eInstant its neighbour rule and `[blocks]` the same, once its play has proved every tier can be laid out
(the neighbour rule's check lays tiers out)."""

from __future__ import annotations

from poolgen.check.einstant import check_einstant
from poolgen.check.figures import GameCheck
from poolgen.check.packs import check_packs
from poolgen.check.printed import check_printed
from poolgen.game.model import EInstant, Game, Printed
from poolgen.run.split import ceiling_game

__all__ = ["check_spec"]


def check_spec(game: Game) -> GameCheck:
    """Compute every pool's figures and cross-check every published figure of the game."""
    result = GameCheck(game)
    match game.sales:
        case Printed():
            check_printed(game, game.sales, result)
            game = ceiling_game(game)  # a split order: its layouts probed with the most of every tier
            check_packs(game, result)
        case EInstant():
            check_einstant(game, game.sales, result)
    if game.published.prize_table == "regulation" and not result.stated:
        result.notes.append(f"{game.name}: the spec states no published figure ([published], a tier's "
                            "published_cost or odds): nothing reconciled, computed figures only")
    before = len(result.problems)
    game.play.check(game, result)
    if isinstance(game.sales, EInstant):  # its neighbour rule (once every tier can be laid out) and [blocks]
        check_packs(game, result, layouts=len(result.problems) == before)
    return result
