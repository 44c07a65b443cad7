"""What every ticket face shares: a proof page's `Evaluation` of a row, the `Face` protocol each face
module follows, name helpers, and the eInstant screen frame with its title band."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from poolgen.game.model import Game, Symbol
from poolgen.game.play import TicketPlay
from poolgen.money import Currency, fmt_cents
from poolgen.pdf.draw import box, left

__all__ = ["Evaluation", "Face", "join_money", "name_of", "screen", "symbol_at", "ticket_params"]

Row = Mapping[str, Any]
P = TypeVar("P")


@dataclass(frozen=True)
class Evaluation:
    """What a layout pays by the game's rules, how, and which spots win."""

    prize_cents: int
    lines: tuple[str, ...]
    winning: frozenset[str] = field(default_factory=frozenset)


class Face(Protocol):
    """A ticket face on the proof pages (a module of poolgen/pdf/faces/)."""

    def columns(self, game: Game, pool: Row) -> list[str]:
        """The layout columns a proof page of this pool reads."""
        ...

    def evaluate(self, game: Game, pool: Row, row: Row) -> Evaluation: ...

    def draw(self, c: Canvas, game: Game, pool: Row, row: Row, ev: Evaluation,
             x: float, y: float, w: float, h: float) -> None:
        """The face in the box (x, y, w, h); winning spots outlined."""
        ...

    def key_note(self, game: Game) -> str:
        """The cover's note under the symbol key ("" for none)."""
        ...


def ticket_params(game: Game, kind: type[P]) -> P:
    """The parameters of a game of one ticket-wide style (what its face reads), of the style's type."""
    if not isinstance(game.play, TicketPlay):
        raise TypeError(f"{game.path.name}: not a game of a ticket-wide style")
    params = game.play.params
    if not isinstance(params, kind):
        raise TypeError(f"{game.path.name}: style {game.play.style}'s parameters are not {kind.__name__}")
    return params


def symbol_at(table: tuple[Symbol, ...], i: int) -> Symbol:
    """The i-th symbol, or a placeholder saying the code is unknown."""
    if 0 <= i < len(table):
        return table[i]
    return Symbol(index=i, group="?", code=f"?{i}", symbol=f"?{i}", caption="unknown")


def name_of(s: Symbol) -> str:
    """'Symbol of a Golden Football' -> 'Golden Football' (Symbol.name)."""
    return s.name


def join_money(values: list[int], currency: Currency) -> str:
    return " + ".join(fmt_cents(v, currency) for v in values)


def screen(c: Canvas, game: Game, pool: Row, row: Row, x: float, y: float, w: float,
           h: float, band: Color, accent: Color) -> float:
    """An eInstant screen frame with its title band; returns the y of the band's bottom."""
    box(c, x, y, w, h, fill=HexColor("#F8F9FA"), stroke=band, width=3, radius=10)
    c.setFillColor(band)
    c.roundRect(x, y + h - 44, w, 44, 10, stroke=0, fill=1)
    c.rect(x, y + h - 44, w, 14, stroke=0, fill=1)
    areas = pool.get("play_areas") or 1
    price = fmt_cents(pool["price_cents"], game.currency)
    if areas > 1:
        price = f"{fmt_cents(pool['denomination_cents'], game.currency)} x {areas} play areas = {price}"
    share = f"pool {pool['id']}   serial {row['serial']:07d}   share {row['ticket']}"
    c.setFillColor(white)
    c.setFont("Helvetica-Bold", 10)
    c.drawRightString(x + w - 16, y + h - 20, f"eInstant   {price}")
    c.setFont("Helvetica", 9)
    c.drawRightString(x + w - 16, y + h - 34, share)
    beside = max(stringWidth(f"eInstant   {price}", "Helvetica-Bold", 10), stringWidth(share, "Helvetica", 9))
    left(c, x + 16, y + h - 31, game.name.upper(), "Helvetica-Bold", 22, accent,
         width=w - 32 - beside - 12)  # a long name ran under the price and the share's number
    return y + h - 44
