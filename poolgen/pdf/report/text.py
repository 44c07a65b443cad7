"""The audit report's colours, paragraph styles and the helpers every page of it uses: escaped
paragraphs, odds and percentages to two places (rounded half up), and the table grid."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from poolgen.money import round_half_up

GOOD = colors.HexColor("#2B8A3E")
BAD = colors.HexColor("#C92A2A")
SKIP = colors.HexColor("#E67700")
INK = colors.HexColor("#212529")
GREY = colors.HexColor("#868E96")
BLUE = colors.HexColor("#1C7ED6")
ORANGE = colors.HexColor("#F76707")
HEAD = colors.HexColor("#E9ECEF")

Cell = str | Flowable  # a table cell: text, or a paragraph
# A table style command: name, first cell, last cell, then the command's values.
Command = tuple[str, tuple[int, int], tuple[int, int], *tuple[object, ...]]


_styles = getSampleStyleSheet()
BODY = ParagraphStyle("body", parent=_styles["BodyText"], fontName="Helvetica", fontSize=9.5,
                      leading=12.5)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8, leading=10)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=9.5)
MONO = ParagraphStyle("mono", parent=BODY, fontName="Courier", fontSize=8, leading=10)
H1 = ParagraphStyle("h1", parent=_styles["Heading1"], fontName="Helvetica-Bold", fontSize=18,
                    leading=22, spaceAfter=8)
H2 = ParagraphStyle("h2", parent=_styles["Heading2"], fontName="Helvetica-Bold", fontSize=13,
                    leading=16, spaceBefore=6, spaceAfter=6)
TITLE = ParagraphStyle("title", parent=H1, fontSize=26, leading=32, alignment=TA_CENTER)
SUBTITLE = ParagraphStyle("subtitle", parent=BODY, fontSize=12, leading=16, alignment=TA_CENTER)


def escape(text: object) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def para(text: str, style: ParagraphStyle = BODY) -> Paragraph:
    return Paragraph(text, style)


def odds_text(tickets: int, count: int) -> str:
    return f"{round_half_up(Fraction(tickets, count), 2):,}" if count else "-"


def percent(num: int, den: int) -> str:
    return f"{round_half_up(Fraction(100 * num, den), 2)}%" if den else "-"


def grid(rows: Sequence[list[Cell]], widths: list[float], *, right_from: int = 1,
          total_rows: int = 0, header: bool = True) -> Table:
    t = Table(rows, colWidths=widths, repeatRows=1 if header else 0)
    style: list[Command] = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("ALIGN", (right_from, 0), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, -1), (-1, -1), 0.5, GREY),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    if header:
        style += [("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
                  ("BACKGROUND", (0, 0), (-1, 0), HEAD),
                  ("LINEBELOW", (0, 0), (-1, 0), 0.5, GREY)]
    if total_rows:
        style += [("FONT", (0, -total_rows), (-1, -1), "Helvetica-Bold", 8),
                  ("LINEABOVE", (0, -total_rows), (-1, -total_rows), 0.8, INK)]
    t.setStyle(TableStyle(style))
    return t
