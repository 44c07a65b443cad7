"""Drawing helpers of the PDFs: colours, text fitted to a width, boxes, spots and panels, and pages
numbered "page N of M"."""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

GOOD = HexColor("#2B8A3E")
BAD = HexColor("#C92A2A")
INK = HexColor("#212529")
GREY = HexColor("#868E96")
WIN_FILL = HexColor("#D3F9D8")


def _fit(text: str, font: str, size: float, width: float) -> float:
    """The largest font size <= size at which text fits in width."""
    w = stringWidth(text, font, size)
    return size if w <= width else max(4.0, size * width / w)


def centred(c: Canvas, x: float, y: float, text: str, font: str, size: float,
             color: Color = INK, width: float | None = None) -> None:
    if width is not None:
        size = _fit(text, font, size, width)
    c.setFillColor(color)
    c.setFont(font, size)
    c.drawCentredString(x, y, text)


def left(c: Canvas, x: float, y: float, text: str, font: str, size: float,
          color: Color = INK, width: float | None = None) -> None:
    if width is not None:
        size = _fit(text, font, size, width)
    c.setFillColor(color)
    c.setFont(font, size)
    c.drawString(x, y, text)


def box(c: Canvas, x: float, y: float, w: float, h: float, *, fill: Color | None = None,
         stroke: Color | None = INK, width: float = 1, radius: float = 4,
         dash: tuple[float, float] | None = None) -> None:
    """A rounded box; `dash`: (on, off) lengths of a dashed outline."""
    c.saveState()
    c.setLineWidth(width)
    if dash:
        c.setDash(*dash)
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
    c.roundRect(x, y, w, h, radius, stroke=1 if stroke is not None else 0,
                fill=1 if fill is not None else 0)
    c.restoreState()


def spot_frame(c: Canvas, x: float, y: float, w: float, h: float, win: bool,
                fill: Color = white) -> None:
    if win:
        box(c, x, y, w, h, fill=WIN_FILL, stroke=GOOD, width=2.5, radius=5)
    else:
        box(c, x, y, w, h, fill=fill, stroke=GREY, width=0.8, radius=5)


def panel(c: Canvas, x: float, y: float, w: float, h: float, title: str, color: Color,
           note: str = "") -> None:
    box(c, x, y, w, h, fill=HexColor("#FFFFFF"), stroke=color, width=1.5, radius=6)
    c.setFillColor(color)
    c.roundRect(x, y + h - 15, w, 15, 6, stroke=0, fill=1)
    c.rect(x, y + h - 15, w, 7, stroke=0, fill=1)
    left(c, x + 6, y + h - 11, title, "Helvetica-Bold", 9, white, width=w - 12)
    if note:
        tw = stringWidth(title, "Helvetica-Bold", 9)
        left(c, x + 14 + tw, y + h - 11, note, "Helvetica", 7.5, white, width=w - tw - 24)


def numbered_pages(x: float, y: float, font: str, size: float, colour: Color) -> type[Canvas]:
    """A canvas class (for `doc.build(..., canvasmaker=...)`) that foots every page, right-aligned at
    (x, y), with "page N of M": each finished page is held until the document is saved, when M is
    known, then numbered and written (reportlab's two-pass "NumberedCanvas" pattern)."""

    class Numbered(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._held: list[dict[str, Any]] = []

        def showPage(self) -> None:  # noqa: N802 (reportlab's name)
            self._held.append(dict(self.__dict__))
            self._startPage()  # type: ignore[attr-defined]  # a new page, the held one not yet written

        def save(self) -> None:
            for state in self._held:
                self.__dict__.update(state)
                self.saveState()
                self.setFont(font, size)
                self.setFillColor(colour)
                self.drawRightString(x, y, f"page {self.getPageNumber()} of {len(self._held)}")
                self.restoreState()
                Canvas.showPage(self)
            Canvas.save(self)

    return Numbered


def fitted(text: str, font: str, size: float, width: float) -> float:
    """The largest font size <= size at which text fits in width, however small: a text never runs
    past its box into a neighbour's (`centred`'s fit stops at 4 points, for lines that have room)."""
    w = stringWidth(text, font, size)
    return size if w <= width else size * width / w


Line = tuple[str, str, float, Color]  # words, font, size wanted, colour


def stacked(c: Canvas, x: float, y: float, w: float, h: float, lines: list[Line]) -> None:
    """Lines centred in the box (x, y, w, h), one under another, each in a band of its own height so
    that no line's glyphs meet another's; where the box is too low for them at their sizes, they
    shrink together, and below 5 points the lines are joined two by two, then into one line, drawn as
    large as the box allows. Every line's words are drawn whatever the room."""
    lines = [line for line in lines if line[0]]
    while lines:
        gap = 1.0
        need = sum(size for _, _, size, _ in lines) + gap * (len(lines) + 1)
        scale = min(1.0, (h - gap * (len(lines) + 1)) / max(1.0, sum(size for _, _, size, _ in lines)))
        if need <= h or min(size for _, _, size, _ in lines) * scale >= 5 or len(lines) == 1:
            break
        joined = [lines[k] if k + 1 == len(lines) else
                  (f"{lines[k][0]}  {lines[k + 1][0]}", lines[k][1], max(lines[k][2], lines[k + 1][2]),
                   lines[k][3]) for k in range(0, len(lines), 2)]
        lines = joined
    if not lines:
        return
    if len(lines) == 1:
        words, font, size, colour = lines[0]
        size = fitted(words, font, min(size, h * 0.9), w)
        centred(c, x + w / 2, y + (h - size) / 2 + size * 0.22, words, font, size, colour)
        return
    sizes = [fitted(words, font, size * scale, w) for words, font, size, _ in lines]
    spare = (h - sum(sizes)) / (len(lines) + 1)
    yy = y + h - spare
    for (words, font, _, colour), size in zip(lines, sizes, strict=True):
        yy -= size
        centred(c, x + w / 2, yy + size * 0.22, words, font, size, colour)
        yy -= spare
