"""Proof pages of the `prize_legend_duel` eInstant style (docs/styles/prize_legend_duel.md): what a
share's layout pays, in words, and its screen as the player sees it with the first play symbol as the
pick (section 6). Every parameter (spots, losses, symbols, who beats whom) comes from the spec."""

from __future__ import annotations

from reportlab.lib.colors import HexColor, white
from reportlab.pdfgen.canvas import Canvas

from poolgen.game.model import Game
from poolgen.money import fmt_cents
from poolgen.pdf.draw import BAD, GOOD, GREY, INK, box, centred, left, panel
from poolgen.pdf.faces.common import Evaluation, Row, join_money, name_of, screen, ticket_params
from poolgen.pdf.symbols import draw_symbol
from poolgen.styles.prize_legend_duel.params import Params

__all__ = ["columns", "draw", "evaluate", "key_note", "shown_symbol"]

UNPLAYED, LOSE, TIE, WIN, MULTIPLIER = 0, 1, 2, 3, 4
OUTCOMES = {UNPLAYED: "UNPLAYED", LOSE: "LOSE", TIE: "TIE", WIN: "WIN", MULTIPLIER: "MULTIPLIER"}
FILL = {UNPLAYED: HexColor("#E9ECEF"), LOSE: HexColor("#FFC9C9"), TIE: white, WIN: HexColor("#B2F2BB"),
        MULTIPLIER: HexColor("#E5DBFF")}
STROKE = {UNPLAYED: GREY, LOSE: BAD, TIE: GREY, WIN: GOOD, MULTIPLIER: HexColor("#7048E8")}
PER_ROW = 5


def _params(game: Game) -> Params:
    return ticket_params(game, Params)


def columns(game: Game, pool: Row) -> list[str]:
    """The layout columns a proof page reads (contract, section 3)."""
    spots = _params(game).spots
    return [f"{c}_{i}" for c in ("spot", "amt") for i in range(spots)]


def shown_symbol(prm: Params, pick: str, outcome: int) -> str | None:
    """The code of the symbol a spot shows for the pick (contract, section 6); None if unplayed."""
    order = [s.code for s in prm.play_symbols]
    if outcome == TIE:
        return pick
    if outcome == WIN:
        return next(c for c in order if c in prm.beats[pick])
    if outcome == LOSE:
        return next(c for c in order if pick in prm.beats[c])
    if outcome == MULTIPLIER:
        return prm.multiplier.code
    return None


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def evaluate(game: Game, pool: Row, row: Row) -> Evaluation:
    """What the share pays (contract, section 5), with the lines that explain it."""
    prm = _params(game)
    codes = [row[f"spot_{i}"] for i in range(prm.spots)]
    amts = [row[f"amt_{i}"] for i in range(prm.spots)]
    wins = [i for i, c in enumerate(codes) if c == WIN]
    m = sum(1 for c in codes if c == MULTIPLIER)
    losses = [i for i, c in enumerate(codes) if c == LOSE]
    total = sum(amts)
    prize = (1 + m) * total
    lines = []
    last = _ordinal(prm.losses)
    if len(losses) == prm.losses:
        end = losses[-1]
        after = f"; spots {end + 2}-{prm.spots} are never revealed" if end < prm.spots - 1 else ""
        lines.append(f"Play ends at the {last} loss, spot {end + 1}{after}.")
    else:
        lines.append(f"ILLEGAL LAYOUT: {len(losses)} losses (every share has exactly {prm.losses}).")
    if wins:
        shown = join_money([amts[i] for i in wins], game.currency) if len(wins) <= 6 else f"{len(wins)} wins"
        lines.append(f"Prize legend: {shown} = {fmt_cents(total, game.currency)}; legend multiplier {1 + m} "
                     f"(1 + {m} multiplier symbol{'s' if m != 1 else ''}).")
        lines.append(f"Prize = {1 + m} x {fmt_cents(total, game.currency)} = "
                     f"{fmt_cents(prize, game.currency)}.")
    else:
        lines.append(f"No WIN spot: the prize legend stays at $0.00 (multiplier {1 + m}): no win.")
    return Evaluation(prize, tuple(lines), frozenset(f"spot_{i}" for i in wins))


def key_note(game: Game) -> str:
    """The cover's note under the symbol key."""
    prm = _params(game)
    names = {s.code: name_of(s) for s in prm.play_symbols}
    beats = ", ".join(f"{names[a]} beats {' and '.join(names[b] for b in prm.beats[a])}"
                      for a in names)
    return (f"{beats}. Spot backgrounds: green WIN (reveals an amount), red LOSE, white TIE, violet "
            f"MULTIPLIER, grey dashed: not played (after the {_ordinal(prm.losses)} loss).")


def draw(c: Canvas, game: Game, pool: Row, row: Row, ev: Evaluation,
         x: float, y: float, w: float, h: float) -> None:
    """The share's screen: its spots as seen with the first play symbol picked, and the prize legend."""
    prm = _params(game)
    pick = prm.play_symbols[0]
    band = HexColor("#1B1B3A")
    top = screen(c, game, pool, row, x, y, w, h, band, HexColor("#FFD43B"))
    left(c, x + 16, top - 18, "Player's pick:", "Helvetica-Bold", 10)
    draw_symbol(c, pick.code, x + 94, top - 24, 18)
    left(c, x + 116, top - 18, f"{name_of(pick).upper()}   (symbols below are as seen with this pick; the "
          "outcome of every spot is fixed at purchase, whatever the pick)", "Helvetica", 8, GREY)
    grid_w = 520
    rows = -(-prm.spots // PER_ROW)
    cw, ch = grid_w / PER_ROW, (top - 34 - (y + 10)) / rows
    codes = [row[f"spot_{i}"] for i in range(prm.spots)]
    for i in range(prm.spots):
        col, rw = i % PER_ROW, i // PER_ROW
        sx, sy = x + 12 + col * cw, top - 30 - (rw + 1) * ch
        code = codes[i]
        box(c, sx + 3, sy + 3, cw - 6, ch - 6, fill=FILL.get(code, white), stroke=STROKE.get(code, GREY),
             width=2.5 if code == WIN else 1, radius=6, dash=(3, 2) if code == UNPLAYED else None)
        left(c, sx + 8, sy + ch - 14, str(i + 1), "Helvetica-Bold", 8, GREY)
        if code == UNPLAYED:
            centred(c, sx + cw / 2, sy + ch / 2, "not played", "Helvetica-Oblique", 9, GREY)
            continue
        size = max(8.0, min(40, ch - 46))
        shown = shown_symbol(prm, pick.code, code) if code in OUTCOMES else None
        if shown:
            draw_symbol(c, shown, sx + (cw - size) / 2, sy + ch - 18 - size, size,
                        name_of(game.symbol(shown)), 7)
        centred(c, sx + cw / 2, sy + 17, OUTCOMES.get(code, f"?{code}"), "Helvetica-Bold", 8,
                 STROKE.get(code, INK))
        if code == WIN:
            centred(c, sx + cw / 2, sy + 6.5, fmt_cents(row[f"amt_{i}"], game.currency), "Helvetica-Bold", 10,
                    GOOD)
    px, pw = x + 24 + grid_w, w - grid_w - 36
    ph = top - 30 - (y + 10)
    panel(c, px, y + 10, pw, ph, "PRIZE LEGEND", band)
    ly = y + 10 + ph - 32
    wins = [i for i in range(prm.spots) if codes[i] == WIN]
    m = sum(1 for k in codes if k == MULTIPLIER)
    for i in wins:
        left(c, px + 10, ly, f"spot {i + 1}", "Helvetica", 9)
        c.setFont("Helvetica-Bold", 9)
        c.drawRightString(px + pw - 10, ly, fmt_cents(row[f"amt_{i}"], game.currency))
        ly -= 12
    if not wins:
        left(c, px + 10, ly, "no wins", "Helvetica-Oblique", 9, GREY)
        ly -= 12
    total = sum(row[f"amt_{i}"] for i in range(prm.spots))
    c.setStrokeColor(INK)
    c.line(px + 10, ly + 8, px + pw - 10, ly + 8)
    ly -= 4
    for label, value in (("Legend total", fmt_cents(total, game.currency)), ("Multiplier", f"x{1 + m}"),
                         ("Prize", fmt_cents((1 + m) * total, game.currency))):
        left(c, px + 10, ly, label, "Helvetica-Bold", 10)
        c.drawRightString(px + pw - 10, ly, value)
        ly -= 14
    draw_symbol(c, prm.multiplier.code, px + 10, y + 16, 22)
    left(c, px + 36, y + 24, "each Multiplier adds 1 to x1", "Helvetica", 7.5, GREY, width=pw - 44)
