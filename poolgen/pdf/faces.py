"""Ticket faces of the four shipped games, one function per game (a game of play styles has its
face drawn by poolgen/pdf/faces_styles.py). Each draws into the box (x, y, w, h) as a player would
see the ticket (printed) or the fully revealed share (eInstant), and marks winning spots with a
green outline."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas

from poolgen.money import fmt_cents
from poolgen.pdf.draw import GREY, INK, _box, _centred, _left, _spot_frame
from poolgen.pdf.evaluation import Evaluation, _symbol
from poolgen.spec import Spec

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
}
