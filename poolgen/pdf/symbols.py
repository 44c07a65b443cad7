"""Drawings of the games' picture symbols, made of reportlab graphics shapes.

Each symbol is drawn in a 100 x 100 unit box and scaled to the size asked for. The drawings are
simple on purpose: they only have to let a reviewer tell the symbols of one game apart at a glance,
so each has its own outline and colour, and `symbol_drawing` writes its label under it.
Symbols are keyed by their spec code (`COIN` is one coin in whichever spec uses that code).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import (
    Circle,
    Drawing,
    Ellipse,
    Group,
    Line,
    Polygon,
    PolyLine,
    Rect,
    String,
)
from reportlab.lib.colors import Color, HexColor, black, white

__all__ = ["DRAWN", "draw_symbol", "has_drawing", "symbol_drawing", "symbol_art"]

GOLD = HexColor("#E8B923")
GOLD_DARK = HexColor("#9A7209")
GREEN = HexColor("#2E8B3A")
INK = HexColor("#222222")


def _gold_bar() -> list:
    return [
        Polygon([8, 22, 92, 22, 76, 58, 24, 58], fillColor=GOLD, strokeColor=GOLD_DARK,
                strokeWidth=3),
        Polygon([24, 58, 76, 58, 68, 72, 32, 72], fillColor=HexColor("#F7DC6F"),
                strokeColor=GOLD_DARK, strokeWidth=3),
        Line(30, 32, 44, 50, strokeColor=HexColor("#FFF3B0"), strokeWidth=4),
        String(58, 32, "999", fontName="Helvetica-Bold", fontSize=14, fillColor=GOLD_DARK,
               textAnchor="middle"),
    ]


def _bill() -> list:
    dark = HexColor("#1F6B2A")
    return [
        Rect(6, 26, 88, 48, fillColor=HexColor("#A8DCA0"), strokeColor=dark, strokeWidth=3),
        Rect(12, 31, 76, 38, fillColor=None, strokeColor=dark, strokeWidth=1.2),
        Circle(50, 50, 14, fillColor=white, strokeColor=dark, strokeWidth=1.5),
        String(50, 43, "$", fontName="Helvetica-Bold", fontSize=20, fillColor=dark,
               textAnchor="middle"),
        String(20, 58, "1", fontName="Helvetica-Bold", fontSize=10, fillColor=dark,
               textAnchor="middle"),
        String(80, 35, "1", fontName="Helvetica-Bold", fontSize=10, fillColor=dark,
               textAnchor="middle"),
    ]


def _piggy_bank() -> list:
    pink, dark = HexColor("#F4A6C0"), HexColor("#B0466E")
    return [
        Rect(26, 14, 10, 16, fillColor=pink, strokeColor=dark, strokeWidth=2),
        Rect(60, 14, 10, 16, fillColor=pink, strokeColor=dark, strokeWidth=2),
        PolyLine([16, 52, 8, 58, 12, 64, 16, 58], strokeColor=dark, strokeWidth=2.5),
        Ellipse(48, 46, 34, 25, fillColor=pink, strokeColor=dark, strokeWidth=2.5),
        Polygon([58, 64, 66, 80, 72, 62], fillColor=pink, strokeColor=dark, strokeWidth=2),
        Ellipse(84, 46, 7, 10, fillColor=HexColor("#F7C4D6"), strokeColor=dark, strokeWidth=2),
        Circle(82, 49, 1.5, fillColor=dark, strokeColor=None),
        Circle(82, 43, 1.5, fillColor=dark, strokeColor=None),
        Circle(70, 54, 3, fillColor=black, strokeColor=None),
        Rect(38, 67, 16, 4, fillColor=dark, strokeColor=None),
    ]


def _coin() -> list:
    return [
        Circle(50, 50, 40, fillColor=GOLD, strokeColor=GOLD_DARK, strokeWidth=4),
        Circle(50, 50, 30, fillColor=None, strokeColor=GOLD_DARK, strokeWidth=1.5),
        String(50, 37, "$", fontName="Helvetica-Bold", fontSize=38, fillColor=GOLD_DARK,
               textAnchor="middle"),
    ]


def _jackpot_coin() -> list:
    red = HexColor("#C0392B")
    dots = [Circle(50 + 36 * math.cos(a * math.pi / 8), 50 + 36 * math.sin(a * math.pi / 8), 2.2,
                   fillColor=GOLD_DARK, strokeColor=None) for a in range(16)]
    return [
        Circle(50, 50, 44, fillColor=HexColor("#F5CB42"), strokeColor=GOLD_DARK, strokeWidth=4),
        *dots,
        Polygon([30, 54, 30, 76, 40, 66, 50, 80, 60, 66, 70, 76, 70, 54], fillColor=red,
                strokeColor=HexColor("#7B241C"), strokeWidth=1.5),
        Rect(10, 30, 80, 18, fillColor=red, strokeColor=HexColor("#7B241C"), strokeWidth=1.5),
        String(50, 34, "JACKPOT", fontName="Helvetica-Bold", fontSize=14, fillColor=white,
               textAnchor="middle"),
    ]


def _pot_of_gold() -> list:
    coins = [Circle(x, y, 8, fillColor=GOLD, strokeColor=GOLD_DARK, strokeWidth=1.5)
             for x, y in ((26, 66), (40, 72), (56, 70), (72, 66), (48, 80), (64, 78))]
    return [
        *coins,
        Ellipse(50, 36, 34, 26, fillColor=INK, strokeColor=black, strokeWidth=2),
        Rect(14, 58, 72, 9, rx=3, ry=3, fillColor=HexColor("#444444"), strokeColor=black,
             strokeWidth=2),
        Rect(26, 6, 8, 8, fillColor=INK, strokeColor=None),
        Rect(66, 6, 8, 8, fillColor=INK, strokeColor=None),
        Line(30, 40, 40, 50, strokeColor=HexColor("#777777"), strokeWidth=3),
    ]


def _clover() -> list:
    leaf = HexColor("#3DA34A")
    leaves = [Circle(50 + dx, 56 + dy, 15, fillColor=leaf, strokeColor=HexColor("#1E6B29"),
                     strokeWidth=2) for dx, dy in ((-13, 13), (13, 13), (-13, -13), (13, -13))]
    return [
        Line(50, 56, 64, 6, strokeColor=HexColor("#1E6B29"), strokeWidth=5),
        *leaves,
        Circle(50, 56, 5, fillColor=HexColor("#1E6B29"), strokeColor=None),
    ]


def _diamond() -> list:
    edge = HexColor("#1E6FA0")
    return [
        Polygon([30, 76, 70, 76, 88, 58, 50, 8, 12, 58], fillColor=HexColor("#9BE3FA"),
                strokeColor=edge, strokeWidth=3),
        Line(12, 58, 88, 58, strokeColor=edge, strokeWidth=1.5),
        PolyLine([30, 76, 40, 58, 50, 76, 60, 58, 70, 76], strokeColor=edge, strokeWidth=1.5),
        PolyLine([40, 58, 50, 8, 60, 58], strokeColor=edge, strokeWidth=1.5),
    ]


def _horseshoe() -> list:
    steel, dark = HexColor("#9AA0A6"), HexColor("#4A4F55")
    outline: list[float] = [12, 90, 12, 50]
    for i in range(1, 20):  # outer arc, left to right under the centre
        a = math.pi + i * math.pi / 20
        outline += [50 + 38 * math.cos(a), 50 + 38 * math.sin(a)]
    outline += [88, 50, 88, 90, 71, 90, 71, 50]
    for i in range(1, 20):  # inner arc, right to left
        a = 2 * math.pi - i * math.pi / 20
        outline += [50 + 21 * math.cos(a), 50 + 21 * math.sin(a)]
    outline += [29, 50, 29, 90]
    holes = [Circle(x, y, 2.6, fillColor=dark, strokeColor=None)
             for x, y in ((20.5, 76), (20.5, 58), (32, 26), (68, 26), (79.5, 58), (79.5, 76))]
    return [Polygon(outline, fillColor=steel, strokeColor=dark, strokeWidth=2.5), *holes]


def _starburst(text: str) -> list:
    pts: list[float] = []
    for i in range(32):
        r = 47 if i % 2 == 0 else 34
        a = math.pi / 2 + i * math.pi / 16
        pts += [50 + r * math.cos(a), 50 + r * math.sin(a)]
    return [
        Polygon(pts, fillColor=HexColor("#FFD43B"), strokeColor=HexColor("#D9480F"),
                strokeWidth=2.5),
        String(50, 56, "WIN", fontName="Helvetica-Bold", fontSize=16,
               fillColor=HexColor("#D9480F"), textAnchor="middle"),
        String(50, 32, text, fontName="Helvetica-Bold", fontSize=22, fillColor=INK,
               textAnchor="middle"),
    ]


def _rock() -> list:
    return [
        Polygon([14, 26, 10, 50, 26, 72, 50, 80, 74, 74, 90, 52, 86, 28, 62, 16, 34, 16],
                fillColor=HexColor("#8D8D8D"), strokeColor=HexColor("#3C3C3C"), strokeWidth=3),
        PolyLine([36, 64, 44, 54, 40, 44], strokeColor=HexColor("#3C3C3C"), strokeWidth=2),
        PolyLine([62, 40, 70, 30], strokeColor=HexColor("#3C3C3C"), strokeWidth=2),
        Ellipse(30, 58, 7, 4, fillColor=HexColor("#B5B5B5"), strokeColor=None),
    ]


def _paper() -> list:
    edge = HexColor("#5B6770")
    lines = [Line(28, y, 72, y, strokeColor=HexColor("#7FA7C9"), strokeWidth=1.5)
             for y in (26, 36, 46, 56, 66)]
    return [
        Polygon([22, 8, 78, 8, 78, 74, 62, 92, 22, 92], fillColor=white, strokeColor=edge,
                strokeWidth=3),
        Polygon([62, 92, 62, 74, 78, 74], fillColor=HexColor("#D5DDE3"), strokeColor=edge,
                strokeWidth=2),
        *lines,
    ]


def _scissors() -> list:
    blade, handle = HexColor("#8E9AA6"), HexColor("#D63031")
    return [
        Polygon([46, 46, 54, 50, 30, 94, 26, 92], fillColor=blade, strokeColor=INK,
                strokeWidth=1.5),
        Polygon([54, 46, 46, 50, 70, 94, 74, 92], fillColor=blade, strokeColor=INK,
                strokeWidth=1.5),
        Line(48, 46, 34, 30, strokeColor=handle, strokeWidth=5),
        Line(52, 46, 66, 30, strokeColor=handle, strokeWidth=5),
        Circle(30, 20, 12, fillColor=None, strokeColor=handle, strokeWidth=6),
        Circle(70, 20, 12, fillColor=None, strokeColor=handle, strokeWidth=6),
        Circle(50, 48, 3, fillColor=INK, strokeColor=None),
    ]


def _multiplier() -> list:
    pts: list[float] = []
    for i in range(8):
        a = math.pi / 8 + i * math.pi / 4
        pts += [50 + 44 * math.cos(a), 50 + 44 * math.sin(a)]
    return [
        Polygon(pts, fillColor=HexColor("#7048E8"), strokeColor=HexColor("#3B1F8F"), strokeWidth=3),
        String(50, 30, "x", fontName="Helvetica-Bold", fontSize=44, fillColor=white,
               textAnchor="middle"),
        String(50, 70, "+1", fontName="Helvetica-Bold", fontSize=14, fillColor=white,
               textAnchor="middle"),
    ]


def _clipboard() -> list:
    lines = [Line(32, y, 68, y, strokeColor=HexColor("#888888"), strokeWidth=1.5)
             for y in (30, 40, 50, 60)]
    return [
        Rect(20, 6, 60, 82, rx=4, ry=4, fillColor=HexColor("#A0522D"),
             strokeColor=HexColor("#5C2E14"), strokeWidth=2.5),
        Rect(27, 12, 46, 64, fillColor=white, strokeColor=HexColor("#999999"), strokeWidth=1),
        *lines,
        Rect(36, 78, 28, 12, rx=2, ry=2, fillColor=HexColor("#B0B6BC"), strokeColor=INK,
             strokeWidth=2),
        Rect(44, 88, 12, 6, fillColor=HexColor("#B0B6BC"), strokeColor=INK, strokeWidth=1.5),
    ]


def _foam_finger() -> list:
    foam, dark = HexColor("#FF7F11"), HexColor("#A14A00")
    return [
        Rect(40, 44, 16, 50, rx=8, ry=8, fillColor=foam, strokeColor=dark, strokeWidth=2.5),
        Rect(22, 8, 54, 50, rx=10, ry=10, fillColor=foam, strokeColor=dark, strokeWidth=2.5),
        Ellipse(76, 38, 9, 14, fillColor=foam, strokeColor=dark, strokeWidth=2.5),
        String(48, 22, "#1", fontName="Helvetica-Bold", fontSize=24, fillColor=white,
               textAnchor="middle"),
    ]


def _whistle() -> list:
    metal, dark = HexColor("#C8CDD2"), HexColor("#50565C")
    return [
        PolyLine([22, 66, 14, 82, 30, 94, 46, 86], strokeColor=HexColor("#D63031"), strokeWidth=3),
        Circle(22, 64, 6, fillColor=None, strokeColor=dark, strokeWidth=2.5),
        Rect(46, 46, 46, 20, fillColor=metal, strokeColor=dark, strokeWidth=2.5),
        Circle(40, 40, 26, fillColor=metal, strokeColor=dark, strokeWidth=2.5),
        Rect(56, 60, 12, 6, fillColor=dark, strokeColor=None),
        Circle(40, 40, 8, fillColor=HexColor("#9AA1A8"), strokeColor=None),
    ]


def _water_bottle() -> list:
    water, dark = HexColor("#8EC9F0"), HexColor("#1B5E94")
    return [
        Rect(32, 6, 36, 64, rx=8, ry=8, fillColor=water, strokeColor=dark, strokeWidth=2.5),
        Polygon([36, 68, 64, 68, 58, 78, 42, 78], fillColor=water, strokeColor=dark,
                strokeWidth=2.5),
        Rect(40, 78, 20, 10, fillColor=HexColor("#1E6FD9"), strokeColor=dark, strokeWidth=2),
        Rect(47, 88, 6, 8, fillColor=HexColor("#1E6FD9"), strokeColor=dark, strokeWidth=1.5),
        Rect(32, 28, 36, 16, fillColor=white, strokeColor=dark, strokeWidth=1.5),
        String(50, 32, "H2O", fontName="Helvetica-Bold", fontSize=11, fillColor=dark,
               textAnchor="middle"),
    ]


def _tee() -> list:
    orange, dark = HexColor("#F76707"), HexColor("#8A3A04")
    return [
        Rect(14, 8, 72, 12, rx=5, ry=5, fillColor=orange, strokeColor=dark, strokeWidth=2.5),
        Polygon([36, 20, 64, 20, 58, 54, 42, 54], fillColor=orange, strokeColor=dark,
                strokeWidth=2.5),
        Polygon([30, 54, 44, 54, 40, 84, 26, 84], fillColor=orange, strokeColor=dark,
                strokeWidth=2.5),
        Polygon([56, 54, 70, 54, 74, 84, 60, 84], fillColor=orange, strokeColor=dark,
                strokeWidth=2.5),
    ]


def _shoe() -> list:
    studs = [Rect(x, 14, 7, 8, fillColor=HexColor("#BBBBBB"), strokeColor=INK, strokeWidth=1)
             for x in (16, 30, 60, 76)]
    return [
        *studs,
        Polygon([8, 22, 92, 22, 94, 34, 74, 44, 52, 52, 40, 70, 14, 70, 8, 50],
                fillColor=INK, strokeColor=black, strokeWidth=2),
        Line(30, 50, 48, 40, strokeColor=white, strokeWidth=3),
        Line(36, 58, 54, 46, strokeColor=white, strokeWidth=3),
        Line(8, 26, 92, 26, strokeColor=white, strokeWidth=2),
    ]


def _jersey(fill: Color, ink: Color) -> list:
    return [
        Polygon([28, 6, 72, 6, 72, 58, 82, 50, 96, 70, 74, 90, 60, 90, 50, 80, 40, 90, 26, 90,
                 4, 70, 18, 50, 28, 58], fillColor=fill, strokeColor=ink, strokeWidth=3),
        Rect(28, 62, 44, 4, fillColor=ink, strokeColor=None),
        String(50, 22, "88", fontName="Helvetica-Bold", fontSize=28, fillColor=ink if fill == white
               else white, textAnchor="middle"),
    ]


def _football(fill: Color, edge: Color) -> list:
    laces = [Line(x, 44, x, 56, strokeColor=white, strokeWidth=2.5) for x in (38, 44, 50, 56, 62)]
    return [
        Ellipse(50, 50, 44, 27, fillColor=fill, strokeColor=edge, strokeWidth=3),
        Line(18, 38, 18, 62, strokeColor=white, strokeWidth=2.5),
        Line(82, 38, 82, 62, strokeColor=white, strokeWidth=2.5),
        Line(34, 50, 66, 50, strokeColor=white, strokeWidth=2.5),
        *laces,
    ]


def _touchdown() -> list:
    turf = HexColor("#2F9E44")
    stripes = [Line(x, 14, x, 86, strokeColor=white, strokeWidth=1.5) for x in (20, 80)]
    return [
        Rect(6, 14, 88, 72, fillColor=turf, strokeColor=HexColor("#1B5E20"), strokeWidth=2.5),
        *stripes,
        String(50, 36, "TD", fontName="Helvetica-Bold", fontSize=36, fillColor=white,
               textAnchor="middle"),
        Polygon([84, 86, 84, 96, 96, 96, 96, 86], fillColor=HexColor("#FF6B00"), strokeColor=None),
    ]


def _field_goal() -> list:
    post, dark = HexColor("#FCC419"), HexColor("#8C6D00")
    return [
        Rect(46, 6, 8, 42, fillColor=post, strokeColor=dark, strokeWidth=1.5),
        Rect(14, 44, 72, 8, fillColor=post, strokeColor=dark, strokeWidth=1.5),
        Rect(14, 44, 8, 52, fillColor=post, strokeColor=dark, strokeWidth=1.5),
        Rect(78, 44, 8, 52, fillColor=post, strokeColor=dark, strokeWidth=1.5),
        Ellipse(50, 76, 12, 7, fillColor=HexColor("#8B4513"), strokeColor=INK, strokeWidth=1.5),
        Line(44, 76, 56, 76, strokeColor=white, strokeWidth=1.2),
    ]


DRAWN: dict[str, Callable[[], list]] = {
    # pictures and win-amount symbols (bonus_reveal areas)
    "GLDBAR": _gold_bar,
    "BILL": _bill,
    "PGYBNK": _piggy_bank,
    "COIN": _coin,
    "POTGLD": _pot_of_gold,
    "CLOVER": _clover,
    "DIAMND": _diamond,
    "HRSHOE": _horseshoe,
    "WIN10": lambda: _starburst("$10"),
    "WIN25": lambda: _starburst("$25"),
    "WIN50": lambda: _starburst("$50"),
    # rock, paper, scissors and a multiplier (prize_legend_duel)
    "R": _rock,
    "P": _paper,
    "S": _scissors,
    "M": _multiplier,
    # pictures of an area_match game
    "CLIP": _clipboard,
    "FINGER": _foam_finger,
    "WHISTLE": _whistle,
    "BOTTLE": _water_bottle,
    "TEE": _tee,
    "SHOE": _shoe,
    "BLUEJ": lambda: _jersey(HexColor("#1F4FBF"), HexColor("#0B2A6F")),
    "WHITEJ": lambda: _jersey(white, HexColor("#1F4FBF")),
    "GFOOT": lambda: _football(HexColor("#D4AF37"), GOLD_DARK),
    "TD": _touchdown,
    "FG": _field_goal,
    "JCOIN": _jackpot_coin,
}


def has_drawing(code: str) -> bool:
    """Whether the symbol with this spec code has a drawing (else it is shown as text)."""
    return code in DRAWN


def symbol_art(code: str, size: float) -> Group:
    """The symbol's shapes scaled into a `size` x `size` box at the origin."""
    make = DRAWN.get(code)
    shapes = make() if make else [
        Rect(4, 20, 92, 60, rx=8, ry=8, fillColor=HexColor("#EEEEEE"), strokeColor=INK,
             strokeWidth=2),
        String(50, 42, code, fontName="Helvetica-Bold", fontSize=18, fillColor=INK,
               textAnchor="middle"),
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


def draw_symbol(canvas, code: str, x: float, y: float, size: float,
                label: str | None = None, font_size: float | None = None) -> None:
    """Draw the symbol on a canvas with its box's lower left corner at (x, y)."""
    renderPDF.draw(symbol_drawing(code, size, label, font_size), canvas, x, y)
