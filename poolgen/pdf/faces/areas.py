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
from poolgen.errors import RunError
from poolgen.game.model import Game
from poolgen.game.play import Area, AreaPlay, Cell
from poolgen.money import fmt_cents
from poolgen.pdf.draw import INK, Line, box, centred, left, spot_frame, stacked
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


LANE_LEAST = 44.0  # a spot row lower than this has sections of few spots packed side by side
LANE_FLOOR = 12.0  # spot rows lower than this (spots under 4 points high): no room for the face, refused


RUN_COLUMNS = 50  # grids side by side while their columns (and a gap each) come to at most this


def _blocks(sections: list[Any]) -> list[list[Any]]:
    """The sections grouped: a section of spots alone; consecutive grids of one area side by side,
    whatever their heights, as long as their columns come to at most RUN_COLUMNS (a puzzle a row taller
    than the others, drawn alone above them, left the spot rows so little room that the CALL LETTERS
    and the PRIZE LEGEND were drawn over each other)."""
    blocks: list[list[Any]] = []
    for sec in sections:
        last = blocks[-1] if blocks else None
        if sec[3] is not None and last is not None and last[-1][3] is not None and last[-1][0] is sec[0] \
                and sum(g[3][1] + 1 for g in last) + sec[3][1] + 1 <= RUN_COLUMNS:
            last.append(sec)
        else:
            blocks.append([sec])
    return blocks


def _title(area: Area, title: str) -> str:
    return f"{title}  (area {area.id}, {area.style})"


def _width(block: list[Any], w: float) -> float:
    """A section of spots' width on the face: its spots' or its title's, the wider."""
    area, title, cells, _ = block[0]
    _, per_row = _rows(cells, area.per_row)
    spots = per_row * (_spot_width(cells, per_row, w) + 8)
    return min(w - 28, max(spots, stringWidth(_title(area, title), "Helvetica-Bold", 9) + 12))


def _lines(blocks: list[list[Any]], w: float, pack: bool) -> list[list[list[Any]]]:
    """The face's lines, top to bottom: a run of grids a line; sections of spots one a line, or with
    `pack` as many side by side as fit the width."""
    lines: list[list[list[Any]]] = []
    for block in blocks:
        last = lines[-1] if lines else None
        if pack and block[0][3] is None and last is not None and last[0][0][3] is None \
                and sum(_width(b, w) + 12 for b in last) + _width(block, w) <= w - 28:
            last.append(block)
        else:
            lines.append([block])
    return lines


def _spot(c: Canvas, cell: Cell, sx: float, sy: float, cw: float, ch: float, win: bool) -> None:
    """One spot: its symbol's text and caption (and a prize with its caption), each line in a band of
    its own (poolgen.pdf.draw.stacked) where the spot is low."""
    _, text, caption, prize, prize_caption = cell
    spot_frame(c, sx, sy, cw, ch, win)
    if not prize:
        big = ch * 0.34
        if ch >= 30 or not caption:
            centred(c, sx + cw / 2, sy + ch * 0.42, text, "Helvetica-Bold", big, ACCENT, width=cw - 8)
            centred(c, sx + cw / 2, sy + ch * 0.16, caption, "Helvetica", 7, INK, width=cw - 8)
        else:
            stacked(c, sx + 4, sy, cw - 8, ch, [(text, "Helvetica-Bold", max(7.0, big), ACCENT),
                                                (caption, "Helvetica", 7, INK)])
        return
    big = max(5.0, min(ch * 0.26, (ch - 13.0 - 6.0) / 1.75))
    lines: list[Line] = [(text, "Helvetica-Bold", big, ACCENT), (caption, "Helvetica", 6.5, INK),
                         (prize, "Helvetica-Bold", big * 0.75, INK),
                         (prize_caption or "", "Helvetica", 6.0, INK)]
    gap = (ch - sum(size for _, _, size, _ in lines)) / 5
    if gap < 0.5:  # too low for four bands: shrunk together, or joined (poolgen.pdf.draw.stacked)
        stacked(c, sx + 4, sy, cw - 8, ch, lines)
        return
    yy = sy + ch - gap  # four lines stacked, each in its own band, so no text is drawn over another
    for words, font, size, color in lines:
        yy -= size
        centred(c, sx + cw / 2, yy + size * 0.2, words, font, size, color, width=cw - 8)
        yy -= gap


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
    blocks = _blocks(sections)
    for pack in (False, True):
        lines = _lines(blocks, w, pack)
        spot_rows = sum(max(_rows(b[0][2], b[0][0].per_row)[0] for b in line)
                        for line in lines if line[0][0][3] is None)
        grid_rows = sum(max(g[3][0] for g in line[0]) for line in lines if line[0][0][3] is not None)
        widest = max([sum(g[3][1] + 1 for g in line[0]) for line in lines if line[0][0][3] is not None]
                     or [1])
        avail = h - 64 - title_h * len(lines)
        side = grid_side(avail, grid_rows, spot_rows, w, widest)
        lane = min(110.0, (avail - grid_rows * side) / max(1, spot_rows))
        if lane >= LANE_LEAST:
            break
    if grid_rows and lane > LANE_LEAST:  # the grids take what the spot rows can spare (a 3 x 3 grid of
        # letters was drawn 10 points a cell above rows of spots with room to spare)
        side = max(side, min(48.0, (w - 28) / widest, (avail - LANE_LEAST * spot_rows) / grid_rows))
        lane = min(110.0, (avail - grid_rows * side) / max(1, spot_rows))
    short = spot_rows > 0 and lane < LANE_FLOOR
    if short or (grid_rows and avail < grid_rows * 6.0):  # drawn anyway, spots of no height or less
        # printed their words upside down over one another (ten GAMES of three in a line, each with its
        # caller and prize spots: 31 sections, rows of spots -9 points high)
        what = (f"rows of spots {lane:.1f} points high (at least {LANE_FLOOR:.0f})" if short else
                f"grid cells {avail / grid_rows:.1f} points high (at least 6)")
        raise RunError(f"{game.path}: areas: a proof page has no room for this ticket's face: its "
                       f"{len(sections)} sections of {len(_play(game).areas)} areas leave {what}; its "
                       "proof cannot be drawn")
    top = y + h - 48
    for line in lines:
        if line[0][0][3] is not None:  # grids drawn as grids, side by side (a crossword's)
            run = [(t, [f"(area {a.id}, {a.style})", f"(area {a.id})"], cells, shape) for a, t, cells, shape
                   in line[0]]
            top -= draw_grids(c, x + 14, top, side, run, ev.winning, title_h)
            continue
        bx, used = x + 14, 0
        for block in line:
            area, title, cells, _ = block[0]
            width = _width(block, w) if len(line) > 1 else w - 28
            left(c, bx, top - 10, _title(area, title), "Helvetica-Bold", 9, ACCENT, width=width)
            n_rows, per_row = _rows(cells, area.per_row)
            cw = _spot_width(cells, per_row, w)
            for k, cell in enumerate(cells):
                r_, col = divmod(k, per_row)
                _spot(c, cell, bx + col * (cw + 8), top - title_h - (r_ + 1) * lane + 4, cw, lane - 8,
                      cell[0] in ev.winning)
            used = max(used, n_rows)
            bx += width + 12
        top -= title_h + lane * used
    left(c, x + 14, y + 8, row["ticket"], "Courier-Bold", 10, INK)
