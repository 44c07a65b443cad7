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
from poolgen.pdf.evaluation import Evaluation, _name, _pp_area, _pp_areas, _symbol, _ws_tables
from poolgen.pdf.symbols import draw_symbol
from poolgen.spec import Spec, Symbol

__all__ = ["FACES"]

HTH_OUTCOMES = {0: "UNPLAYED", 1: "LOSE", 2: "TIE", 3: "WIN", 4: "MULTIPLIER"}
HTH_PICK = "R"  # symbols are shown for the pick Rock; the outcome, not the symbol, is stored
HTH_SHOWN = {1: "P", 2: "R", 3: "S", 4: "M"}  # outcome -> symbol seen with pick Rock


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
    "wild_side": _face_wild_side,
    "hand_to_hand_tactics": _face_hand_to_hand_tactics,
    "primetime_payout": _face_primetime_payout,
}
