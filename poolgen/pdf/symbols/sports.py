"""Drawings of the football symbols of an area_match game, each in a 100 x 100 unit box."""

from __future__ import annotations

from reportlab.graphics.shapes import (
    Circle,
    Ellipse,
    Line,
    Polygon,
    PolyLine,
    Shape,
    String,
)
from reportlab.lib.colors import Color, HexColor, black, white

from poolgen.pdf.shapes import rect
from poolgen.pdf.symbols.luck import INK


def clipboard() -> list[Shape]:
    lines = [Line(32, y, 68, y, strokeColor=HexColor("#888888"), strokeWidth=1.5)
             for y in (30, 40, 50, 60)]
    return [
        rect(20, 6, 60, 82, rx=4, ry=4, fillColor=HexColor("#A0522D"),
             strokeColor=HexColor("#5C2E14"), strokeWidth=2.5),
        rect(27, 12, 46, 64, fillColor=white, strokeColor=HexColor("#999999"), strokeWidth=1),
        *lines,
        rect(36, 78, 28, 12, rx=2, ry=2, fillColor=HexColor("#B0B6BC"), strokeColor=INK,
             strokeWidth=2),
        rect(44, 88, 12, 6, fillColor=HexColor("#B0B6BC"), strokeColor=INK, strokeWidth=1.5),
    ]


def foam_finger() -> list[Shape]:
    foam, dark = HexColor("#FF7F11"), HexColor("#A14A00")
    return [
        rect(40, 44, 16, 50, rx=8, ry=8, fillColor=foam, strokeColor=dark, strokeWidth=2.5),
        rect(22, 8, 54, 50, rx=10, ry=10, fillColor=foam, strokeColor=dark, strokeWidth=2.5),
        Ellipse(76, 38, 9, 14, fillColor=foam, strokeColor=dark, strokeWidth=2.5),
        String(48, 22, "#1", fontName="Helvetica-Bold", fontSize=24, fillColor=white,
               textAnchor="middle"),
    ]


def whistle() -> list[Shape]:
    metal, dark = HexColor("#C8CDD2"), HexColor("#50565C")
    return [
        PolyLine([22, 66, 14, 82, 30, 94, 46, 86], strokeColor=HexColor("#D63031"), strokeWidth=3),
        Circle(22, 64, 6, fillColor=None, strokeColor=dark, strokeWidth=2.5),
        rect(46, 46, 46, 20, fillColor=metal, strokeColor=dark, strokeWidth=2.5),
        Circle(40, 40, 26, fillColor=metal, strokeColor=dark, strokeWidth=2.5),
        rect(56, 60, 12, 6, fillColor=dark, strokeColor=None),
        Circle(40, 40, 8, fillColor=HexColor("#9AA1A8"), strokeColor=None),
    ]


def water_bottle() -> list[Shape]:
    water, dark = HexColor("#8EC9F0"), HexColor("#1B5E94")
    return [
        rect(32, 6, 36, 64, rx=8, ry=8, fillColor=water, strokeColor=dark, strokeWidth=2.5),
        Polygon([36, 68, 64, 68, 58, 78, 42, 78], fillColor=water, strokeColor=dark,
                strokeWidth=2.5),
        rect(40, 78, 20, 10, fillColor=HexColor("#1E6FD9"), strokeColor=dark, strokeWidth=2),
        rect(47, 88, 6, 8, fillColor=HexColor("#1E6FD9"), strokeColor=dark, strokeWidth=1.5),
        rect(32, 28, 36, 16, fillColor=white, strokeColor=dark, strokeWidth=1.5),
        String(50, 32, "H2O", fontName="Helvetica-Bold", fontSize=11, fillColor=dark,
               textAnchor="middle"),
    ]


def tee() -> list[Shape]:
    orange, dark = HexColor("#F76707"), HexColor("#8A3A04")
    return [
        rect(14, 8, 72, 12, rx=5, ry=5, fillColor=orange, strokeColor=dark, strokeWidth=2.5),
        Polygon([36, 20, 64, 20, 58, 54, 42, 54], fillColor=orange, strokeColor=dark,
                strokeWidth=2.5),
        Polygon([30, 54, 44, 54, 40, 84, 26, 84], fillColor=orange, strokeColor=dark,
                strokeWidth=2.5),
        Polygon([56, 54, 70, 54, 74, 84, 60, 84], fillColor=orange, strokeColor=dark,
                strokeWidth=2.5),
    ]


def shoe() -> list[Shape]:
    studs = [rect(x, 14, 7, 8, fillColor=HexColor("#BBBBBB"), strokeColor=INK, strokeWidth=1)
             for x in (16, 30, 60, 76)]
    return [
        *studs,
        Polygon([8, 22, 92, 22, 94, 34, 74, 44, 52, 52, 40, 70, 14, 70, 8, 50],
                fillColor=INK, strokeColor=black, strokeWidth=2),
        Line(30, 50, 48, 40, strokeColor=white, strokeWidth=3),
        Line(36, 58, 54, 46, strokeColor=white, strokeWidth=3),
        Line(8, 26, 92, 26, strokeColor=white, strokeWidth=2),
    ]


def jersey(fill: Color, ink: Color) -> list[Shape]:
    return [
        Polygon([28, 6, 72, 6, 72, 58, 82, 50, 96, 70, 74, 90, 60, 90, 50, 80, 40, 90, 26, 90,
                 4, 70, 18, 50, 28, 58], fillColor=fill, strokeColor=ink, strokeWidth=3),
        rect(28, 62, 44, 4, fillColor=ink, strokeColor=None),
        String(50, 22, "88", fontName="Helvetica-Bold", fontSize=28, fillColor=ink if fill == white
               else white, textAnchor="middle"),
    ]


def football(fill: Color, edge: Color) -> list[Shape]:
    laces = [Line(x, 44, x, 56, strokeColor=white, strokeWidth=2.5) for x in (38, 44, 50, 56, 62)]
    return [
        Ellipse(50, 50, 44, 27, fillColor=fill, strokeColor=edge, strokeWidth=3),
        Line(18, 38, 18, 62, strokeColor=white, strokeWidth=2.5),
        Line(82, 38, 82, 62, strokeColor=white, strokeWidth=2.5),
        Line(34, 50, 66, 50, strokeColor=white, strokeWidth=2.5),
        *laces,
    ]


def touchdown() -> list[Shape]:
    turf = HexColor("#2F9E44")
    stripes = [Line(x, 14, x, 86, strokeColor=white, strokeWidth=1.5) for x in (20, 80)]
    return [
        rect(6, 14, 88, 72, fillColor=turf, strokeColor=HexColor("#1B5E20"), strokeWidth=2.5),
        *stripes,
        String(50, 36, "TD", fontName="Helvetica-Bold", fontSize=36, fillColor=white,
               textAnchor="middle"),
        Polygon([84, 86, 84, 96, 96, 96, 96, 86], fillColor=HexColor("#FF6B00"), strokeColor=None),
    ]


def field_goal() -> list[Shape]:
    post, dark = HexColor("#FCC419"), HexColor("#8C6D00")
    return [
        rect(46, 6, 8, 42, fillColor=post, strokeColor=dark, strokeWidth=1.5),
        rect(14, 44, 72, 8, fillColor=post, strokeColor=dark, strokeWidth=1.5),
        rect(14, 44, 8, 52, fillColor=post, strokeColor=dark, strokeWidth=1.5),
        rect(78, 44, 8, 52, fillColor=post, strokeColor=dark, strokeWidth=1.5),
        Ellipse(50, 76, 12, 7, fillColor=HexColor("#8B4513"), strokeColor=INK, strokeWidth=1.5),
        Line(44, 76, 56, 76, strokeColor=white, strokeWidth=1.2),
    ]
