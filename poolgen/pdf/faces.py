"""Ticket faces of the four shipped games, one function per game (a game of play styles has its
face drawn by poolgen/pdf/faces_styles.py). Each draws into the box (x, y, w, h) as a player would
see the ticket (printed) or the fully revealed share (eInstant), and marks winning spots with a
green outline."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas

from poolgen.money import fmt_cents
from poolgen.pdf.draw import GREY, INK, _box, _centred, _left, _panel, _spot_frame
from poolgen.pdf.evaluation import Evaluation, _symbol, _ws_tables
from poolgen.pdf.symbols import draw_symbol
from poolgen.spec import Spec, Symbol

__all__ = ["FACES"]

def _face_happy_holidays(c: Canvas, spec: Spec, pool: dict, row: dict, ev: Evaluation,
                         x: float, y: float, w: float, h: float) -> None:
    red, green = HexColor("#C92A2A"), HexColor("#2B8A3E")
    tw, th = 600, 330
    tx, ty = x + (w - tw) / 2, y + (h - th) / 2
    _box(c, tx, ty, tw, th, fill=HexColor("#FFF8E7"), stroke=red, width=3, radius=10)
    c.setFillColor(red)
    c.roundRect(tx, ty + th - 64, tw, 64, 10, stroke=0, fill=1)
    c.rect(tx, ty + th - 64, tw, 20, stroke=0, fill=1)
    _left(c, tx + 18, ty + th - 38, spec.name.upper(), "Helvetica-Bold", 28, white)
    _left(c, tx + 20, ty + th - 56, f"GAME {spec.number}", "Helvetica-Bold", 10, white)
    c.setFillColor(green)
    c.circle(tx + tw - 44, ty + th - 32, 25, stroke=0, fill=1)
    _centred(c, tx + tw - 44, ty + th - 40, fmt_cents(pool["price_cents"]).replace(".00", ""),
             "Helvetica-Bold", 22, white, width=44)
    _centred(c, tx + tw / 2, ty + th - 84, "Match 3 identical prize amounts, win that amount.",
             "Helvetica-Bold", 12, green)
    sw, sh, gap = 160, 92, 16
    gx = tx + (tw - 3 * sw - 2 * gap) / 2
    for j in range(6):
        col, rw = j % 3, j // 3
        sx, sy = gx + col * (sw + gap), ty + th - 104 - (rw + 1) * sh - rw * gap
        s = _symbol(spec.symbols, row[f"spot_{j}"])
        _spot_frame(c, sx, sy, sw, sh, f"spot_{j}" in ev.winning)
        _left(c, sx + 6, sy + sh - 12, str(j + 1), "Helvetica", 7, GREY)
        _centred(c, sx + sw / 2, sy + 40, s.symbol, "Helvetica-Bold", 34, red, width=sw - 16)
        _centred(c, sx + sw / 2, sy + 16, s.caption, "Helvetica-Bold", 13, INK, width=sw - 16)
    _left(c, tx + 18, ty + 12, row["ticket"], "Courier-Bold", 11, INK)
    c.setFillColor(INK)
    c.setFont("Helvetica", 8)
    c.drawRightString(tx + tw - 18, ty + 13,
                      f"BOOK {row['book']:07d}   TICKET {row['ticket_no']:03d}")


def _face_wild_side(c: Canvas, spec: Spec, pool: dict, row: dict, ev: Evaluation,
                    x: float, y: float, w: float, h: float) -> None:
    purple, lime = HexColor("#5F3DC4"), HexColor("#66A80F")
    numbers, prizes, bonus = _ws_tables(spec)
    tw, th = w, h
    tx, ty = x, y
    _box(c, tx, ty, tw, th, fill=HexColor("#F3F0FF"), stroke=purple, width=3, radius=10)
    c.setFillColor(purple)
    c.roundRect(tx, ty + th - 40, tw, 40, 10, stroke=0, fill=1)
    c.rect(tx, ty + th - 40, tw, 14, stroke=0, fill=1)
    _left(c, tx + 16, ty + th - 30, spec.name.upper(), "Helvetica-Bold", 24, white)
    _left(c, tx + 180, ty + th - 28, f"GAME {spec.number}", "Helvetica-Bold", 10, white)
    c.setFillColor(lime)
    c.circle(tx + tw - 34, ty + th - 20, 17, stroke=0, fill=1)
    _centred(c, tx + tw - 34, ty + th - 26, fmt_cents(pool["price_cents"]).replace(".00", ""),
             "Helvetica-Bold", 16, white, width=30)
    c.setFillColor(white)
    c.setFont("Helvetica", 7.5)
    c.drawRightString(tx + tw - 60, ty + th - 24,
                      "Match any number to any LUCKY NUMBER, win the prize below it.")

    def number_spot(key: str, sx: float, sy: float, sw: float, sh: float,
                    prize: Symbol | None) -> None:
        n = row[key]
        s = numbers.get(n)
        _spot_frame(c, sx, sy, sw, sh, key in ev.winning)
        top = sy + sh - (18 if prize else 24)
        _centred(c, sx + sw / 2, top, f"{n:02d}", "Helvetica-Bold", 16 if prize else 20, INK)
        _centred(c, sx + sw / 2, top - 9, s.caption if s else "not a number", "Helvetica", 6.5,
                 GREY, width=sw - 4)
        if prize is not None:
            c.setStrokeColor(HexColor("#DEE2E6"))
            c.setLineWidth(0.6)
            c.line(sx + 6, sy + 27, sx + sw - 6, sy + 27)
            _centred(c, sx + sw / 2, sy + 13, prize.symbol, "Helvetica-Bold", 12, purple,
                     width=sw - 6)
            _centred(c, sx + sw / 2, sy + 4, prize.caption, "Helvetica", 6.5, GREY, width=sw - 4)

    half = (tw - 30) / 2
    top_y = ty + th - 48
    # Row 1: LUCKY NUMBERS (left), WILD BONUS (right)
    ph = 82
    _panel(c, tx + 10, top_y - ph, half, ph, "LUCKY NUMBERS", purple)
    sw, sh = 58, 52
    g = (half - 5 * sw) / 6
    for j in range(5):
        number_spot(f"lucky_{j}", tx + 10 + g + j * (sw + g), top_y - ph + 8, sw, sh, None)
    bx = tx + 20 + half
    _panel(c, bx, top_y - ph, half, ph, "WILD BONUS", lime,
           "reveal a WIN$ symbol, win that amount")
    bw = 90
    g = (half - 3 * bw) / 4
    for j in range(3):
        s = _symbol(bonus, row[f"bonus_{j}"])
        sx = bx + g + j * (bw + g)
        _spot_frame(c, sx, top_y - ph + 6, bw, 58, f"bonus_{j}" in ev.winning)
        draw_symbol(c, s.code, sx + (bw - 44) / 2, top_y - ph + 7, 44, s.caption, 7)
    # Row 2: YOUR NUMBERS (left), YOUR WILD NUMBERS (right), 4 x 3 spots each
    area_h = top_y - ph - 8 - (ty + 10)
    for k, (area, title, note, color) in enumerate((
            ("your", "YOUR NUMBERS", "", purple),
            ("wild", "YOUR WILD NUMBERS",
             f"win {spec.play.get('wild_multiplier', 5)}X the prize shown", HexColor("#D9480F")))):
        ax = tx + 10 + k * (half + 10)
        _panel(c, ax, ty + 10, half, area_h, title, color, note)
        cw, ch = (half - 10) / 4, (area_h - 22) / 3
        for j in range(12):
            col, rw = j % 4, j // 4
            sx = ax + 5 + col * cw + 3
            sy = ty + 10 + area_h - 18 - (rw + 1) * ch + 2
            number_spot(f"{area}_{j}", sx, sy, cw - 6, ch - 4,
                        _symbol(prizes, row[f"{area}_prize_{j}"]))
    c.setFillColor(INK)
    c.setFont("Courier-Bold", 9)
    c.drawString(tx + 12, ty - 11, row["ticket"])
    c.setFont("Helvetica", 8)
    c.drawRightString(tx + tw - 12, ty - 11,
                      f"BOOK {row['book']:07d}   TICKET {row['ticket_no']:03d}")


def _screen(c: Canvas, spec: Spec, pool: dict, row: dict, x: float, y: float, w: float,
            h: float, band: Color, accent: Color) -> float:
    """An eInstant screen frame with its title band; returns the y of the band's bottom."""
    _box(c, x, y, w, h, fill=HexColor("#F8F9FA"), stroke=band, width=3, radius=10)
    c.setFillColor(band)
    c.roundRect(x, y + h - 44, w, 44, 10, stroke=0, fill=1)
    c.rect(x, y + h - 44, w, 14, stroke=0, fill=1)
    _left(c, x + 16, y + h - 31, spec.name.upper(), "Helvetica-Bold", 22, accent)
    areas = pool.get("play_areas") or 1
    price = fmt_cents(pool["price_cents"])
    if areas > 1:
        price = f"{fmt_cents(pool['denomination_cents'])} x {areas} play areas = {price}"
    c.setFillColor(white)
    c.setFont("Helvetica-Bold", 10)
    c.drawRightString(x + w - 16, y + h - 20, f"eInstant   {price}")
    c.setFont("Helvetica", 9)
    c.drawRightString(x + w - 16, y + h - 34,
                      f"pool {pool['id']}   serial {row['serial']:07d}   share {row['ticket']}")
    return y + h - 44




FACES = {
    "happy_holidays": _face_happy_holidays,
    "wild_side": _face_wild_side,
}
