"""The ticket face of a game of play areas (`AreaPlay`), drawn from the spec's areas and symbols alone:
one panel per area, its sections of spots, each spot its symbol and caption (and the prize below a
key number). What a layout pays is evaluated by audit's area engines (docs/styles/play.md); each
area style explains the wins in words and names the spots that win."""

from __future__ import annotations

from typing import Any

import polars as pl
from reportlab.lib.colors import HexColor, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from audit.styles.play import evaluate as evaluate_areas
from poolgen.game.model import Game
from poolgen.game.play import Area, AreaPlay, Cell
from poolgen.money import fmt_cents
from poolgen.pdf.draw import INK, box, centred, left, spot_frame
from poolgen.pdf.faces.common import Evaluation, Row
from poolgen.pdf.faces.crossword import draw_grids, grid_side

ACCENT = HexColor("#1864AB")


def _play(game: Game) -> AreaPlay:
    if not isinstance(game.play, AreaPlay):
        raise TypeError(f"{game.path.name}: not a game of play areas")
    return game.play


def columns(game: Game, pool: Row) -> list[str]:
    return [c for a in _play(game).areas for c in a.columns()]


def evaluate(game: Game, pool: Row, row: Row) -> Evaluation:
    """The prize audit's engines find for one row, the styles' explanation, and any reason the row
    is illegal."""
    play = _play(game)
    table = pl.DataFrame({k: [v] for k, v in row.items() if k in ("tier", *columns(game, pool))})
    result = evaluate_areas(table, dict(pool), play.document())
    lines: list[str] = []
    winning: set[str] = set()
    for a in sorted(play.areas, key=lambda a: a.style != "ticket_multiplier"):  # stable: a ticket-wide
        area_lines, area_winning = a.module.explain(a.id, a.params, row, game.currency)  # multiplier first
        lines += area_lines
        winning |= area_winning
    if not lines:
        lines = ["No area shows a win: no prize."]
    lines += [f"ILLEGAL LAYOUT: {why}" for _, why in result.illegal]
    return Evaluation(int(result.prize_cents[0]), tuple(lines), frozenset(winning))


def key_note(game: Game) -> str:
    """The cover's note under the symbol key: the numbers a ticket's number spots show."""
    numbers = game.symbols_in("number")
    return "Numbers: " + ", ".join(f"{s.symbol} {s.caption}" for s in numbers) if numbers else ""


def _rows(cells: list[Cell], per_row: int | None = None) -> tuple[int, int]:
    """(rows, cells per row) of a section: the area's `per_row` a row where the spec gives it (a 9-spot
    area drawn 3 x 3), else at most 8 cells a row, rows as even as can be."""
    if per_row:
        return max(1, -(-len(cells) // per_row)), per_row
    rows = max(1, -(-len(cells) // 8))
    return rows, max(1, -(-len(cells) // rows))


def _spot_width(cells: list[Cell], per_row: int, w: float) -> float:
    """A spot's width in a face w wide: the row's share, `per_row` spots a row; but a section of fewer
    spots than that (a bingo legend of 6 under calls drawn 15 a row) spreads over the row when a
    spot's words would not fit at 7 points ("POSTAGE STAMP" was drawn at 4)."""
    cw = min(110.0, (w - 28) / per_row - 8)
    if len(cells) < per_row and any(stringWidth(text, "Helvetica-Bold", 7) > cw - 8 for _, text, *_ in cells):
        cw = min(110.0, (w - 28) / len(cells) - 8)
    return cw


def _shapes(area: Area, k: int) -> tuple[int, int, str] | None:
    """Section k's grid shape (rows, columns, colour) where the style draws it as a grid."""
    shapes = getattr(area.module, "shapes", None)  # only grid styles have one (crossword)
    return shapes(area.id, area.params)[k] if shapes else None


def draw(c: Canvas, game: Game, pool: Row, row: Row, ev: Evaluation, x: float, y: float, w: float,
         h: float) -> None:
    """The ticket face in the box (x, y, w, h); winning spots outlined as proofs.py does."""
    box(c, x, y, w, h, fill=HexColor("#F8F9FA"), stroke=ACCENT, width=2.5, radius=10)
    c.setFillColor(ACCENT)
    c.roundRect(x, y + h - 40, w, 40, 10, stroke=0, fill=1)
    c.rect(x, y + h - 40, w, 14, stroke=0, fill=1)
    left(c, x + 14, y + h - 28, game.name.upper(), "Helvetica-Bold", 20, white, width=w / 2)
    c.setFillColor(white)
    c.setFont("Helvetica-Bold", 11)
    c.drawRightString(x + w - 14, y + h - 26,
                      f"GAME {game.number}   {fmt_cents(pool['price_cents'], game.currency)}")
    sections = [(a, a.labels[k] if a.labels else title, cells, _shapes(a, k))
                for a in _play(game).areas
                for k, (title, cells) in enumerate(a.module.face(a.id, a.params, row))]
    title_h = 16
    blocks: list[list[Any]] = []  # a section of spots alone; consecutive grids of one height side by side
    for sec in sections:
        last = blocks[-1][0] if blocks else None
        if sec[3] is not None and last is not None and last[3] is not None \
                and (last[0], last[3][0]) == (sec[0], sec[3][0]):
            blocks[-1].append(sec)
        else:
            blocks.append([sec])
    total_rows = sum(_rows(b[0][2], b[0][0].per_row)[0] for b in blocks if b[0][3] is None)
    grids = [[(t, [f"(area {a.id}, {a.style})", f"(area {a.id})"], cells, shape) for a, t, cells, shape in b]
             for b in blocks if b[0][3] is not None]
    grid_rows = sum(max(g[3][0] for g in run) for run in grids)
    avail = h - 64 - title_h * len(blocks)
    side = grid_side(avail, grid_rows, total_rows, w, max([sum(g[3][1] + 1 for g in run) for run in grids]
                                                          or [1]))
    lane = min(110.0, (avail - grid_rows * side) / max(1, total_rows))
    top = y + h - 48
    for block in blocks:
        area, title, cells, shape = block[0]
        if shape is not None:  # grids drawn as grids, side by side (a crossword's)
            top -= draw_grids(c, x + 14, top, side, grids.pop(0), ev.winning, title_h)
            continue
        left(c, x + 14, top - 10, f"{title}  (area {area.id}, {area.style})", "Helvetica-Bold", 9, ACCENT)
        top -= title_h
        n_rows, per_row = _rows(cells, area.per_row)
        cw = _spot_width(cells, per_row, w)
        ch = lane - 8
        for k, (column, text, caption, prize, prize_caption) in enumerate(cells):
            r_, col = divmod(k, per_row)
            sx, sy = x + 14 + col * (cw + 8), top - (r_ + 1) * lane + 4
            spot_frame(c, sx, sy, cw, ch, column in ev.winning)
            if not prize:
                big = ch * 0.34
                centred(c, sx + cw / 2, sy + ch * 0.42, text, "Helvetica-Bold", big, ACCENT, width=cw - 8)
                centred(c, sx + cw / 2, sy + ch * 0.16, caption, "Helvetica", 7, INK, width=cw - 8)
                continue
            # four lines stacked, each in its own band, so no text is drawn over another
            big = max(5.0, min(ch * 0.26, (ch - 13.0 - 6.0) / 1.75))
            lines = [(text, "Helvetica-Bold", big, ACCENT), (caption, "Helvetica", 6.5, INK),
                     (prize, "Helvetica-Bold", big * 0.75, INK), (prize_caption or "", "Helvetica", 6.0, INK)]
            gap = max(0.5, (ch - sum(size for _, _, size, _ in lines)) / 5)
            yy = sy + ch - gap
            for words, font, size, color in lines:
                yy -= size
                centred(c, sx + cw / 2, yy + size * 0.2, words, font, size, color, width=cw - 8)
                yy -= gap
        top -= lane * n_rows
    left(c, x + 14, y + 8, row["ticket"], "Courier-Bold", 10, INK)
