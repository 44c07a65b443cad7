"""Ticket faces of the four shipped games, one function per game (a game of play styles has its
face drawn by poolgen/pdf/faces_styles.py). Each draws into the box (x, y, w, h) as a player would
see the ticket (printed) or the fully revealed share (eInstant), and marks winning spots with a
green outline."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from poolgen.money import fmt_cents
from poolgen.pdf.draw import BAD, GOOD, GREY, INK, WIN_FILL, _box, _centred, _left, _panel, _spot_frame
from poolgen.pdf.evaluation import Evaluation, _name, _pp_area, _pp_areas, _symbol
from poolgen.pdf.symbols import draw_symbol
from poolgen.spec import Spec

__all__ = ["FACES"]

HTH_OUTCOMES = {0: "UNPLAYED", 1: "LOSE", 2: "TIE", 3: "WIN", 4: "MULTIPLIER"}
HTH_PICK = "R"  # symbols are shown for the pick Rock; the outcome, not the symbol, is stored
HTH_SHOWN = {1: "P", 2: "R", 3: "S", 4: "M"}  # outcome -> symbol seen with pick Rock


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


HTH_FILL = {0: HexColor("#E9ECEF"), 1: HexColor("#FFC9C9"), 2: white, 3: HexColor("#B2F2BB"),
            4: HexColor("#E5DBFF")}
HTH_STROKE = {0: GREY, 1: BAD, 2: GREY, 3: GOOD, 4: HexColor("#7048E8")}


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


def _face_hand_to_hand_tactics(c: Canvas, spec: Spec, pool: dict, row: dict, ev: Evaluation,
                               x: float, y: float, w: float, h: float) -> None:
    band = HexColor("#1B1B3A")
    top = _screen(c, spec, pool, row, x, y, w, h, band, HexColor("#FFD43B"))
    _left(c, x + 16, top - 18, "Player's pick:", "Helvetica-Bold", 10)
    draw_symbol(c, HTH_PICK, x + 94, top - 24, 18)
    _left(c, x + 116, top - 18, "ROCK   (symbols below are as seen with this pick; the outcome "
          "of every spot is fixed at purchase, whatever the pick)", "Helvetica", 8, GREY)
    grid_w = 520
    cw, ch = grid_w / 5, (top - 34 - (y + 10)) / 3
    codes = [row[f"spot_{i}"] for i in range(15)]
    for i in range(15):
        col, rw = i % 5, i // 5
        sx, sy = x + 12 + col * cw, top - 30 - (rw + 1) * ch
        code = codes[i]
        _box(c, sx + 3, sy + 3, cw - 6, ch - 6, fill=HTH_FILL.get(code, white),
             stroke=HTH_STROKE.get(code, GREY), width=2.5 if code == 3 else 1, radius=6,
             dash=(3, 2) if code == 0 else None)
        _left(c, sx + 8, sy + ch - 14, str(i + 1), "Helvetica-Bold", 8, GREY)
        outcome = HTH_OUTCOMES.get(code, f"?{code}")
        if code == 0:
            _centred(c, sx + cw / 2, sy + ch / 2, "not played", "Helvetica-Oblique", 9, GREY)
            continue
        size = min(40, ch - 46)
        shown = HTH_SHOWN.get(code)
        if shown:
            label = _name(spec.symbol(shown)) if shown in {t.code for t in spec.symbols} else shown
            draw_symbol(c, shown, sx + (cw - size) / 2, sy + ch - 18 - size, size, label, 7)
        _centred(c, sx + cw / 2, sy + 17, outcome, "Helvetica-Bold", 8,
                 HTH_STROKE.get(code, INK))
        if code == 3:
            _centred(c, sx + cw / 2, sy + 6.5, fmt_cents(row[f"amt_{i}"]), "Helvetica-Bold",
                     10, GOOD)
    # The prize legend panel
    px, pw = x + 24 + grid_w, w - grid_w - 36
    ph = top - 30 - (y + 10)
    _panel(c, px, y + 10, pw, ph, "PRIZE LEGEND", band)
    ly = y + 10 + ph - 32
    wins = [i for i in range(15) if codes[i] == 3]
    m = sum(1 for k in codes if k == 4)
    for i in wins:
        _left(c, px + 10, ly, f"spot {i + 1}", "Helvetica", 9)
        c.setFont("Helvetica-Bold", 9)
        c.drawRightString(px + pw - 10, ly, fmt_cents(row[f"amt_{i}"]))
        ly -= 12
    if not wins:
        _left(c, px + 10, ly, "no wins", "Helvetica-Oblique", 9, GREY)
        ly -= 12
    total = sum(row[f"amt_{i}"] for i in range(15))
    c.setStrokeColor(INK)
    c.line(px + 10, ly + 8, px + pw - 10, ly + 8)
    ly -= 4
    for label, value in (("Legend total", fmt_cents(total)), ("Multiplier", f"x{1 + m}"),
                         ("Prize", fmt_cents((1 + m) * total))):
        _left(c, px + 10, ly, label, "Helvetica-Bold", 10)
        c.drawRightString(px + pw - 10, ly, value)
        ly -= 14
    draw_symbol(c, "M", px + 10, y + 16, 22)
    _left(c, px + 36, y + 24, "each Multiplier adds 1 to x1", "Helvetica", 7.5, GREY,
          width=pw - 44)


PP_BONUS = {1: "TOUCHDOWN BONUS", 2: "FIELD GOAL BONUS"}


def _face_primetime_payout(c: Canvas, spec: Spec, pool: dict, row: dict, ev: Evaluation,
                           x: float, y: float, w: float, h: float) -> None:
    navy, gold = HexColor("#0B3D91"), HexColor("#FFD43B")
    top = _screen(c, spec, pool, row, x, y, w, h, navy, gold)
    k = _pp_areas(pool)
    grid = spec.layout.get("field_goal_grid", [1, 2, 3, 4, 2, 1])
    aw = min(250.0, (w - 20 - 10 * (k - 1)) / k)
    ax0 = x + (w - k * aw - 10 * (k - 1)) / 2
    ah = top - 10 - (y + 10)
    for i in range(k):
        ax, ay = ax0 + i * (aw + 10), y + 10
        paid, why, _ = _pp_area(spec, row, i)
        win = f"a{i}" in ev.winning
        _panel(c, ax, ay, aw, ah, f"PLAY AREA {i + 1}", GOOD if win else navy)
        _centred(c, ax + aw / 2, ay + ah - 34, f"PRIZE {fmt_cents(row[f'a{i}_amount'])}",
                 "Helvetica-Bold", 13, navy, width=aw - 10)
        cell_w = (aw - 18) / 2
        cell_h = min(92.0, (ah - 150) / 2)
        size = min(cell_h - 20, cell_w - 16, 64)
        for j in range(4):
            col, rw = j % 2, j // 2
            sx = ax + 6 + col * (cell_w + 6)
            sy = ay + ah - 44 - (rw + 1) * (cell_h + 4)
            s = _symbol(spec.symbols, row[f"a{i}_s{j}"] - 1)
            _spot_frame(c, sx, sy, cell_w, cell_h, f"a{i}_s{j}" in ev.winning)
            draw_symbol(c, s.code, sx + (cell_w - size) / 2, sy + 4, size, _name(s),
                        min(7.5, size / 6))
        # bonus game
        by = ay + 40
        bonus = row[f"a{i}_bonus"]
        result = row[f"a{i}_bonus_result"]
        if bonus == 1:
            _centred(c, ax + aw / 2, by + 38, PP_BONUS[1], "Helvetica-Bold", 9, navy)
            bw = (aw - 20) / 4
            for b in range(4):
                scored = bool(result >> b & 1)
                bx = ax + 10 + b * bw
                _box(c, bx + 2, by, bw - 4, 30, fill=WIN_FILL if scored else white,
                     stroke=GOOD if scored else GREY, width=1.5 if scored else 0.8)
                _centred(c, bx + bw / 2, by + 18, f"chance {b + 1}", "Helvetica", 6.5, GREY)
                _centred(c, bx + bw / 2, by + 6, "TD" if scored else "miss", "Helvetica-Bold",
                         9, GOOD if scored else GREY)
        elif bonus == 2:
            _centred(c, ax + aw / 2, by + 38, PP_BONUS[2], "Helvetica-Bold", 9, navy)
            bw = (aw - 20) / len(grid)
            for b, n in enumerate(grid):
                hit = b == result
                bx = ax + 10 + b * bw
                _box(c, bx + 1.5, by, bw - 3, 30, fill=WIN_FILL if hit else white,
                     stroke=GOOD if hit else GREY, width=1.5 if hit else 0.8)
                _centred(c, bx + bw / 2, by + 18, f"{n} prize{'s' if n > 1 else ''}",
                         "Helvetica", 6, INK, width=bw - 5)
                _centred(c, bx + bw / 2, by + 6, "HIT" if hit else "", "Helvetica-Bold", 8, GOOD)
        else:
            _centred(c, ax + aw / 2, by + 14, "no bonus game", "Helvetica-Oblique", 8, GREY)
        # area result
        _centred(c, ax + aw / 2, ay + 23, f"WINS {fmt_cents(paid)}" if paid else "NO WIN",
                 "Helvetica-Bold", 12, GOOD if paid else GREY)
        lines = simpleSplit(why, "Helvetica", 6.5, aw - 10)
        if len(lines) > 2:  # never cut: two lines at a smaller size
            lines = simpleSplit(why, "Helvetica", 6.5, (aw - 10) * 2 / len(lines) * 1.05)
        for n, line in enumerate(lines[:2]):
            _centred(c, ax + aw / 2, ay + 12 - 7.5 * n, line, "Helvetica", 6.5, INK,
                     width=aw - 8)


FACES = {
    "happy_holidays": _face_happy_holidays,
    "hand_to_hand_tactics": _face_hand_to_hand_tactics,
    "primetime_payout": _face_primetime_payout,
}
