"""Drawings of the games' picture symbols, made of reportlab graphics shapes.

Each symbol is drawn in a 100 x 100 unit box and scaled to the size asked for. The drawings are
simple on purpose: they only have to let a reviewer tell the symbols of one game apart at a glance,
so each has its own outline and colour, and `symbol_drawing` writes its label under it.
Symbols are keyed by their spec code (`COIN` is one coin in whichever spec uses that code); the
drawings are in `luck` (money, luck, the duel) and `sports` (an area_match game's football).
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Group, Shape, String
from reportlab.lib.colors import HexColor, white
from reportlab.pdfgen.canvas import Canvas

from poolgen.pdf.draw import fitted
from poolgen.pdf.shapes import rect
from poolgen.pdf.symbols import luck, sports
from poolgen.pdf.symbols.luck import GOLD_DARK, INK

__all__ = ["DRAWN", "draw_symbol", "has_drawing", "symbol_art", "symbol_drawing"]


DRAWN: dict[str, Callable[[], list[Shape]]] = {
    # pictures and win-amount symbols (bonus_reveal areas)
    "GLDBAR": luck.gold_bar,
    "BILL": luck.bill,
    "PGYBNK": luck.piggy_bank,
    "COIN": luck.coin,
    "POTGLD": luck.pot_of_gold,
    "CLOVER": luck.clover,
    "DIAMND": luck.diamond,
    "HRSHOE": luck.horseshoe,
    "WIN10": lambda: luck.starburst("$10"),
    "WIN25": lambda: luck.starburst("$25"),
    "WIN50": lambda: luck.starburst("$50"),
    # rock, paper, scissors and a multiplier (prize_legend_duel)
    "R": luck.rock,
    "P": luck.paper,
    "S": luck.scissors,
    "M": luck.multiplier,
    # pictures of an area_match game
    "CLIP": sports.clipboard,
    "FINGER": sports.foam_finger,
    "WHISTLE": sports.whistle,
    "BOTTLE": sports.water_bottle,
    "TEE": sports.tee,
    "SHOE": sports.shoe,
    "BLUEJ": lambda: sports.jersey(HexColor("#1F4FBF"), HexColor("#0B2A6F")),
    "WHITEJ": lambda: sports.jersey(white, HexColor("#1F4FBF")),
    "GFOOT": lambda: sports.football(HexColor("#D4AF37"), GOLD_DARK),
    "TD": sports.touchdown,
    "FG": sports.field_goal,
    "JCOIN": luck.jackpot_coin,
}


def has_drawing(code: str) -> bool:
    """Whether the symbol with this spec code has a drawing (else it is shown as text)."""
    return code in DRAWN


def symbol_art(code: str, size: float) -> Group:
    """The symbol's shapes scaled into a `size` x `size` box at the origin."""
    make = DRAWN.get(code)
    shapes = make() if make else [
        rect(4, 20, 92, 60, rx=8, ry=8, fillColor=HexColor("#EEEEEE"), strokeColor=INK,
             strokeWidth=2),
        String(50, 42, code, fontName="Helvetica-Bold", fontSize=fitted(code, "Helvetica-Bold", 18, 84),
               fillColor=INK, textAnchor="middle"),  # a long code within its box, not over its neighbours
    ]
    g = Group(*shapes)
    g.scale(size / 100, size / 100)
    return g


def symbol_drawing(code: str, size: float, label: str | None = None,
                   font_size: float | None = None) -> Drawing:
    """A Drawing of the symbol, `size` points square, with `label` centred under it if given."""
    fs = font_size or max(6.0, size / 7)
    extra = fs * 1.4 if label else 0
    d = Drawing(size, size + extra)
    art = symbol_art(code, size)
    art.translate(0, extra * 100 / size)
    d.add(art)
    if label:
        d.add(String(size / 2, fs * 0.35, label, fontName="Helvetica-Bold", fontSize=fs,
                     fillColor=INK, textAnchor="middle"))
    return d


def draw_symbol(canvas: Canvas, code: str, x: float, y: float, size: float,
                label: str | None = None, font_size: float | None = None) -> None:
    """Draw the symbol on a canvas with its box's lower left corner at (x, y)."""
    renderPDF.draw(symbol_drawing(code, size, label, font_size), canvas, x, y)
