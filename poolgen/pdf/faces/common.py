"""What the ticket faces of eInstant styles share: the screen frame with its title band
(poolgen/pdf/faces_<style>.py draw the rest; a game of play styles has its face drawn by
poolgen/pdf/faces/areas.py)."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas

from poolgen.money import fmt_cents
from poolgen.pdf.draw import _box, _left
from poolgen.spec import Spec


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
