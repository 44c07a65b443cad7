"""One PDF page of a back-office table (prizes remaining, the closing report): a title, a few lines
of context and the table, as a lottery would post it (docs/back-office.md, section 6); a table too
long for a page goes on under its header row, every page footed with the title and "page N of M"; a
table too wide for a portrait page (an eInstant's closing report, nine columns) is drawn on landscape
pages, its header words one a line."""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from poolgen.pdf.draw import numbered_pages
from poolgen.pdf.report.text import escape


class _FootedDoc(SimpleDocTemplate):
    """Every page footed, once its table rows are drawn, with the title and "page N of M" (the
    canvas, `numbered_pages`): a second page of a long table says which report it is, and that none is
    missing."""

    def afterPage(self) -> None:
        canvas: Canvas = self.canv
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.setFillColor(colors.HexColor("#868E96"))
        canvas.drawString(self.leftMargin, 0.5 * inch, str(self.title))  # "page N of M": _NUMBERED
        canvas.restoreState()


def table_page(title: str, lines: list[str], header: list[str], rows: list[list[str]]) -> bytes:
    """The PDF of `title`, `lines`, then the table (numbers right-aligned), on letter pages; the
    command writes it (cli/common.py `write_output`: 0600, never over a file without --force). The
    title and lines are text (a game's name, a run id), escaped: a Paragraph reads markup."""
    styles = getSampleStyleSheet()
    buf = io.BytesIO()
    page = letter
    if Table([header, *rows]).wrap(0, 0)[0] > letter[0] - 2 * inch:  # wider than a portrait page's frame
        page, header = landscape(letter), [h.replace(" ", "\n") for h in header]  # (an eInstant's closing)
    doc = _FootedDoc(buf, pagesize=page, title=title, author="poolgen", invariant=1)
    table = Table([header, *rows], repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#F1F3F5")]),
    ]))
    story = [Paragraph(escape(title), styles["Title"]),
             *[Paragraph(escape(t), styles["Normal"]) for t in lines], Spacer(1, 12), table]

    doc.build(story, canvasmaker=numbered_pages(page[0] - doc.rightMargin, 0.5 * inch, "Helvetica", 8,
                                                 colors.HexColor("#868E96")))
    return buf.getvalue()
