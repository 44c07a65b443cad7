"""A grid as printed (docs/styles/crossword.md, lines.md): rows x columns of cells, the cells of no
letter left blank, in the grid's colour where the spec names one; winning cells outlined. The other
sections are drawn as any area's spots (poolgen/pdf/faces/areas.py), which asks a style for its
sections' shapes (`shapes`) and draws consecutive grids of one height side by side."""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from poolgen.game.play import Cell
from poolgen.pdf.draw import INK, centred, fitted, left, spot_frame

__all__ = ["draw_grid", "draw_grids", "grid_side", "grid_title"]


def grid_side(avail: float, grid_rows: int, other_rows: int, w: float, widest: int) -> float:
    """A grid cell's side when `avail` points of height hold `grid_rows` grid rows and `other_rows`
    rows of spots (each given at least 2.4 grid cells), and no grid is wider than `w`."""
    return max(4.0, min(48.0, avail / max(1.0, grid_rows + 2.4 * other_rows), (w - 28) / max(1, widest)))


def draw_grid(c: Canvas, x: float, top: float, side: float, cells: list[Cell],
              shape: tuple[int, int, str], winning: frozenset[str]) -> float:
    """Draw the grid's cells (row by row) from (x, top) down; return the height used."""
    rows, cols, colour = shape
    ink = HexColor(colour) if colour else INK
    for k, (column, text, caption, _prize, _prize_caption) in enumerate(cells):
        if not column:
            continue
        r, col = divmod(k, cols)
        sx, sy = x + col * side, top - (r + 1) * side
        spot_frame(c, sx + 1, sy + 1, side - 2, side - 2, column in winning)
        size = fitted(text, "Helvetica-Bold", side * 0.55, side - 4)
        centred(c, sx + side / 2, sy + side * 0.28, text, "Helvetica-Bold", size, ink)
        if caption:  # a caption (a letter's, or a doubler's mark, crossword.md section 11) below, never
            # wider than the cell nor reaching its letter
            size = fitted(caption, "Helvetica-Bold", side * 0.2, side - 4)
            centred(c, sx + side / 2, sy + side * 0.06, caption, "Helvetica-Bold", size, ink)
    return rows * side


def grid_title(title: str, notes: list[str], width: float) -> str:
    """The title with the longest of `notes` (most to least said) that fits `width` at 7 points or
    more, else the title alone: a 5-cell bingo card is too narrow for "B I N G O  CARD 1  (area
    bingo, bingo)", which fitted whole was 5.7 points."""
    for note in notes:
        text = f"{title}  {note}"
        if stringWidth(text, "Helvetica-Bold", 7) <= width:
            return text
    return title


def draw_grids(c: Canvas, x: float, top: float, side: float,
               grids: list[tuple[str, list[str], list[Cell], tuple[int, int, str]]],
               winning: frozenset[str], title_h: float) -> float:
    """Grids side by side, each under its title (in its colour; over its width and the gap to the
    next, with what of its notes fits); return the height used."""
    used = 0.0
    for title, notes, cells, shape in grids:
        colour = HexColor(shape[2]) if shape[2] else INK
        width = (shape[1] + 1) * side - 6
        left(c, x, top - 10, grid_title(title, notes, width), "Helvetica-Bold", 9, colour, width=width)
        used = max(used, draw_grid(c, x, top - title_h, side, cells, shape, winning))
        x += (shape[1] + 1) * side
    return title_h + used
