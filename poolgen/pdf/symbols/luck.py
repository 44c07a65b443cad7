"""Drawings of money, luck and duel symbols (bonus pictures, win amounts, rock, paper, scissors,
the multiplier), each in a 100 x 100 unit box."""

from __future__ import annotations

import math

from reportlab.graphics.shapes import (
    Circle,
    Ellipse,
    Line,
    Polygon,
    PolyLine,
    Shape,
    String,
)
from reportlab.lib.colors import HexColor, black, white

from poolgen.pdf.shapes import rect

GOLD = HexColor("#E8B923")
GOLD_DARK = HexColor("#9A7209")
GREEN = HexColor("#2E8B3A")
INK = HexColor("#222222")


def gold_bar() -> list[Shape]:
    return [
        Polygon([8, 22, 92, 22, 76, 58, 24, 58], fillColor=GOLD, strokeColor=GOLD_DARK,
                strokeWidth=3),
        Polygon([24, 58, 76, 58, 68, 72, 32, 72], fillColor=HexColor("#F7DC6F"),
                strokeColor=GOLD_DARK, strokeWidth=3),
        Line(30, 32, 44, 50, strokeColor=HexColor("#FFF3B0"), strokeWidth=4),
        String(58, 32, "999", fontName="Helvetica-Bold", fontSize=14, fillColor=GOLD_DARK,
               textAnchor="middle"),
    ]


def bill() -> list[Shape]:
    dark = HexColor("#1F6B2A")
    return [
        rect(6, 26, 88, 48, fillColor=HexColor("#A8DCA0"), strokeColor=dark, strokeWidth=3),
        rect(12, 31, 76, 38, fillColor=None, strokeColor=dark, strokeWidth=1.2),
        Circle(50, 50, 14, fillColor=white, strokeColor=dark, strokeWidth=1.5),
        String(50, 43, "$", fontName="Helvetica-Bold", fontSize=20, fillColor=dark,
               textAnchor="middle"),
        String(20, 58, "1", fontName="Helvetica-Bold", fontSize=10, fillColor=dark,
               textAnchor="middle"),
        String(80, 35, "1", fontName="Helvetica-Bold", fontSize=10, fillColor=dark,
               textAnchor="middle"),
    ]


def piggy_bank() -> list[Shape]:
    pink, dark = HexColor("#F4A6C0"), HexColor("#B0466E")
    return [
        rect(26, 14, 10, 16, fillColor=pink, strokeColor=dark, strokeWidth=2),
        rect(60, 14, 10, 16, fillColor=pink, strokeColor=dark, strokeWidth=2),
        PolyLine([16, 52, 8, 58, 12, 64, 16, 58], strokeColor=dark, strokeWidth=2.5),
        Ellipse(48, 46, 34, 25, fillColor=pink, strokeColor=dark, strokeWidth=2.5),
        Polygon([58, 64, 66, 80, 72, 62], fillColor=pink, strokeColor=dark, strokeWidth=2),
        Ellipse(84, 46, 7, 10, fillColor=HexColor("#F7C4D6"), strokeColor=dark, strokeWidth=2),
        Circle(82, 49, 1.5, fillColor=dark, strokeColor=None),
        Circle(82, 43, 1.5, fillColor=dark, strokeColor=None),
        Circle(70, 54, 3, fillColor=black, strokeColor=None),
        rect(38, 67, 16, 4, fillColor=dark, strokeColor=None),
    ]


def coin() -> list[Shape]:
    return [
        Circle(50, 50, 40, fillColor=GOLD, strokeColor=GOLD_DARK, strokeWidth=4),
        Circle(50, 50, 30, fillColor=None, strokeColor=GOLD_DARK, strokeWidth=1.5),
        String(50, 37, "$", fontName="Helvetica-Bold", fontSize=38, fillColor=GOLD_DARK,
               textAnchor="middle"),
    ]


def jackpot_coin() -> list[Shape]:
    red = HexColor("#C0392B")
    dots = [Circle(50 + 36 * math.cos(a * math.pi / 8), 50 + 36 * math.sin(a * math.pi / 8), 2.2,
                   fillColor=GOLD_DARK, strokeColor=None) for a in range(16)]
    return [
        Circle(50, 50, 44, fillColor=HexColor("#F5CB42"), strokeColor=GOLD_DARK, strokeWidth=4),
        *dots,
        Polygon([30, 54, 30, 76, 40, 66, 50, 80, 60, 66, 70, 76, 70, 54], fillColor=red,
                strokeColor=HexColor("#7B241C"), strokeWidth=1.5),
        rect(10, 30, 80, 18, fillColor=red, strokeColor=HexColor("#7B241C"), strokeWidth=1.5),
        String(50, 34, "JACKPOT", fontName="Helvetica-Bold", fontSize=14, fillColor=white,
               textAnchor="middle"),
    ]


def pot_of_gold() -> list[Shape]:
    coins = [Circle(x, y, 8, fillColor=GOLD, strokeColor=GOLD_DARK, strokeWidth=1.5)
             for x, y in ((26, 66), (40, 72), (56, 70), (72, 66), (48, 80), (64, 78))]
    return [
        *coins,
        Ellipse(50, 36, 34, 26, fillColor=INK, strokeColor=black, strokeWidth=2),
        rect(14, 58, 72, 9, rx=3, ry=3, fillColor=HexColor("#444444"), strokeColor=black,
             strokeWidth=2),
        rect(26, 6, 8, 8, fillColor=INK, strokeColor=None),
        rect(66, 6, 8, 8, fillColor=INK, strokeColor=None),
        Line(30, 40, 40, 50, strokeColor=HexColor("#777777"), strokeWidth=3),
    ]


def clover() -> list[Shape]:
    leaf = HexColor("#3DA34A")
    leaves = [Circle(50 + dx, 56 + dy, 15, fillColor=leaf, strokeColor=HexColor("#1E6B29"),
                     strokeWidth=2) for dx, dy in ((-13, 13), (13, 13), (-13, -13), (13, -13))]
    return [
        Line(50, 56, 64, 6, strokeColor=HexColor("#1E6B29"), strokeWidth=5),
        *leaves,
        Circle(50, 56, 5, fillColor=HexColor("#1E6B29"), strokeColor=None),
    ]


def diamond() -> list[Shape]:
    edge = HexColor("#1E6FA0")
    return [
        Polygon([30, 76, 70, 76, 88, 58, 50, 8, 12, 58], fillColor=HexColor("#9BE3FA"),
                strokeColor=edge, strokeWidth=3),
        Line(12, 58, 88, 58, strokeColor=edge, strokeWidth=1.5),
        PolyLine([30, 76, 40, 58, 50, 76, 60, 58, 70, 76], strokeColor=edge, strokeWidth=1.5),
        PolyLine([40, 58, 50, 8, 60, 58], strokeColor=edge, strokeWidth=1.5),
    ]


def horseshoe() -> list[Shape]:
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


def starburst(text: str) -> list[Shape]:
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


def rock() -> list[Shape]:
    return [
        Polygon([14, 26, 10, 50, 26, 72, 50, 80, 74, 74, 90, 52, 86, 28, 62, 16, 34, 16],
                fillColor=HexColor("#8D8D8D"), strokeColor=HexColor("#3C3C3C"), strokeWidth=3),
        PolyLine([36, 64, 44, 54, 40, 44], strokeColor=HexColor("#3C3C3C"), strokeWidth=2),
        PolyLine([62, 40, 70, 30], strokeColor=HexColor("#3C3C3C"), strokeWidth=2),
        Ellipse(30, 58, 7, 4, fillColor=HexColor("#B5B5B5"), strokeColor=None),
    ]


def paper() -> list[Shape]:
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


def scissors() -> list[Shape]:
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


def multiplier() -> list[Shape]:
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
