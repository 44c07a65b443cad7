"""Proof pages of the `area_match` eInstant style (docs/styles/area_match.md): what a share's layout
pays, area by area, and its face. Every parameter is the spec's (poolgen/styles/area_match/params.py):
its symbols, spots, wild, bonus key, match pays and bonus games."""

from __future__ import annotations

from collections import Counter

from reportlab.lib.colors import HexColor, white
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from poolgen.game.model import Game
from poolgen.money import fmt_cents
from poolgen.pdf.draw import GOOD, GREY, INK, WIN_FILL, box, centred, panel, spot_frame
from poolgen.pdf.faces.common import Evaluation, Row, name_of, screen, symbol_at, ticket_params
from poolgen.pdf.symbols import draw_symbol
from poolgen.styles.area_match.params import Params, document

__all__ = ["columns", "draw", "evaluate", "key_note"]


def _params(game: Game) -> Params:
    return ticket_params(game, Params)


def _areas(pool: Row) -> int:
    return int(pool.get("play_areas") or 1)


def _area(game: Game, row: Row, i: int) -> tuple[int, str, frozenset[int]]:
    """What area i pays, one line saying why, and the spots that make the win."""
    p = _params(game)
    codes = [row[f"a{i}_s{j}"] for j in range(p.spots)]
    amount = row[f"a{i}_amount"]
    wilds = codes.count(p.wild)
    counts = Counter(c for c in codes if c in p.matchable)
    best_code, best = (counts.most_common(1)[0] if counts else (None, 0))
    match = wilds + best
    trigger = next((j for j, g in enumerate(p.games) if p.key in codes and g.symbol in codes), None)
    wild_name = name_of(symbol_at(game.symbols, p.wild - 1))
    wild = f" ({wilds} {wild_name}{'s' if wilds > 1 else ''} wild)" if wilds and best else ""
    what = name_of(symbol_at(game.symbols, best_code - 1)) if best_code else wild_name
    matching = frozenset(j for j in range(p.spots) if codes[j] in (p.wild, best_code))
    times = [t for count, t in p.match if match >= count]
    if times:
        t = times[-1]
        if t == 1:
            return amount, f"{match} matching {what}{wild}: {fmt_cents(amount, game.currency)}", matching
        return t * amount, (f"{match} matching {what}{wild}: {t} x {fmt_cents(amount, game.currency)} = "
                            f"{fmt_cents(t * amount, game.currency)}"), matching
    if trigger is not None:
        n = row[f"a{i}_bonus_prizes"]
        kind = p.names[trigger]
        spots = frozenset(j for j in range(p.spots) if codes[j] in (p.key, p.games[trigger].symbol))
        return n * amount, (f"{kind} bonus, {n} prize{'s' if n != 1 else ''}: {n} x "
                            f"{fmt_cents(amount, game.currency)} = "
                            f"{fmt_cents(n * amount, game.currency)}"), spots
    return 0, (f"no match of {p.match[0][0]}, no bonus: no win (the {fmt_cents(amount, game.currency)} is "
               "not won)"), frozenset()


def evaluate(game: Game, pool: Row, row: Row) -> Evaluation:
    lines, total, winning = [], 0, set()
    for i in range(_areas(pool)):
        paid, why, spots = _area(game, row, i)
        total += paid
        if paid:
            winning.add(f"a{i}")
            winning |= {f"a{i}_s{j}" for j in spots}
        lines.append(f"Play area {i + 1}: {why}.")
    if len(lines) > 1:
        lines.append(f"Total of the play areas: {fmt_cents(total, game.currency)}.")
    return Evaluation(total, tuple(lines), frozenset(winning))


def columns(game: Game, pool: Row) -> list[str]:
    """The layout columns the evaluator and the face read (contract section 2)."""
    spots = _params(game).spots
    return [f"a{i}_{c}" for i in range(_areas(pool))
            for c in (*(f"s{j}" for j in range(spots)), "amount", "bonus", "bonus_result",
                      "bonus_prizes")]


def key_note(game: Game) -> str:
    """The cover's note on the symbols: what the wild, the bonus key and the games do."""
    p = _params(game)

    def sym(code: int) -> str:
        return name_of(symbol_at(game.symbols, code - 1))

    games = p.names
    bonus = ", ".join(sym(c) for c in p.bonus_symbols)
    pays = "; ".join(f"{count} matching symbols win {'the' if t == 1 else f'{t} x the'} area's prize"
                     for count, t in p.match)
    plays = "; ".join(f"{sym(p.key)} with {sym(g.symbol)}: {name} bonus game"
                      for g, name in zip(p.games, games, strict=True))
    return f"{sym(p.wild)}: wild, matches any symbol except {bonus}. {plays}. {pays}."


def draw(c: Canvas, game: Game, pool: Row, row: Row, ev: Evaluation,
         x: float, y: float, w: float, h: float) -> None:
    navy, gold = HexColor("#0B3D91"), HexColor("#FFD43B")
    top = screen(c, game, pool, row, x, y, w, h, navy, gold)
    k = _areas(pool)
    p = _params(game)
    games = document(p)["bonus_games"]
    rows = (p.spots + 1) // 2
    aw = min(250.0, (w - 20 - 10 * (k - 1)) / k)
    ax0 = x + (w - k * aw - 10 * (k - 1)) / 2
    ah = top - 10 - (y + 10)
    for i in range(k):
        ax, ay = ax0 + i * (aw + 10), y + 10
        paid, why, _ = _area(game, row, i)
        win = f"a{i}" in ev.winning
        panel(c, ax, ay, aw, ah, f"PLAY AREA {i + 1}", GOOD if win else navy)
        centred(c, ax + aw / 2, ay + ah - 34, f"PRIZE {fmt_cents(row[f'a{i}_amount'], game.currency)}",
                 "Helvetica-Bold", 13, navy, width=aw - 10)
        cell_w = (aw - 18) / 2
        cell_h = min(92.0, (ah - 150) / rows)
        size = min(cell_h - 20, cell_w - 16, 64)
        for j in range(p.spots):
            col, rw = j % 2, j // 2
            sx = ax + 6 + col * (cell_w + 6)
            sy = ay + ah - 44 - (rw + 1) * (cell_h + 4)
            s = symbol_at(game.symbols, row[f"a{i}_s{j}"] - 1)
            spot_frame(c, sx, sy, cell_w, cell_h, f"a{i}_s{j}" in ev.winning)
            draw_symbol(c, s.code, sx + (cell_w - size) / 2, sy + 4, size, name_of(s),
                        min(7.5, size / 6))
        # bonus game
        by = ay + 40
        bonus = row[f"a{i}_bonus"]
        result = row[f"a{i}_bonus_result"]
        bonus_game = games[bonus - 1] if 1 <= bonus <= len(games) else None
        if bonus_game is not None:
            centred(c, ax + aw / 2, by + 38, f"{bonus_game['name'].upper()} BONUS", "Helvetica-Bold", 9,
                     navy)
        if bonus_game is not None and "chances" in bonus_game:
            bw = (aw - 20) / bonus_game["chances"]
            for b in range(bonus_game["chances"]):
                scored = bool(result >> b & 1)
                bx = ax + 10 + b * bw
                box(c, bx + 2, by, bw - 4, 30, fill=WIN_FILL if scored else white,
                     stroke=GOOD if scored else GREY, width=1.5 if scored else 0.8)
                centred(c, bx + bw / 2, by + 18, f"chance {b + 1}", "Helvetica", 6.5, GREY)
                centred(c, bx + bw / 2, by + 6, "SCORE" if scored else "miss", "Helvetica-Bold",
                         9, GOOD if scored else GREY)
        elif bonus_game is not None:
            grid = bonus_game["grid"]
            bw = (aw - 20) / len(grid)
            for b, n in enumerate(grid):
                hit = b == result
                bx = ax + 10 + b * bw
                box(c, bx + 1.5, by, bw - 3, 30, fill=WIN_FILL if hit else white,
                     stroke=GOOD if hit else GREY, width=1.5 if hit else 0.8)
                centred(c, bx + bw / 2, by + 18, f"{n} prize{'s' if n > 1 else ''}",
                         "Helvetica", 6, INK, width=bw - 5)
                centred(c, bx + bw / 2, by + 6, "HIT" if hit else "", "Helvetica-Bold", 8, GOOD)
        else:
            centred(c, ax + aw / 2, by + 14, "no bonus game", "Helvetica-Oblique", 8, GREY)
        # area result
        centred(c, ax + aw / 2, ay + 23, f"WINS {fmt_cents(paid, game.currency)}" if paid else "NO WIN",
                 "Helvetica-Bold", 12, GOOD if paid else GREY)
        lines = simpleSplit(why, "Helvetica", 6.5, aw - 10)
        if len(lines) > 2:  # never cut: two lines at a smaller size
            lines = simpleSplit(why, "Helvetica", 6.5, (aw - 10) * 2 / len(lines) * 1.05)
        for n, line in enumerate(lines[:2]):
            centred(c, ax + aw / 2, ay + 12 - 7.5 * n, line, "Helvetica", 6.5, INK,
                     width=aw - 8)


