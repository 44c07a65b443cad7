"""Ticket proofs: tickets of a run drawn as a player would see them, one a page, with what they pay.

Pages: a cover (run, selection rule, the game's symbol key), an index of the tickets, then one
page per ticket: the ticket face (printed games) or the fully revealed share (eInstants), and a
statement of the prize the layout pays, evaluated here from the layout columns by the rules of
specs/<game>.md and compared with the prize the pool records for the ticket.

Default selection: `per_tier` tickets of every tier of every pool, chosen with poolgen's DRBG
seeded from the run itself, never from the OS and never from the secret seed:

    seed   = SHA-256(b"poolgen/proof-selection/v1" || exact bytes of manifest.json)
    stream = derive_stream(seed, "poolgen/v1", "proof", pool_id)

For each tier in manifest order, k = min(per_tier, tickets of the tier) distinct tickets are
drawn from the tier's tickets in pool order by Floyd's algorithm (for j = n-k .. n-1:
t = integers(stream, j + 1); take t, or j if t is taken), so a run always gives the same proof.
"""

from __future__ import annotations

import hashlib
import io
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl
from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from poolgen.errors import RunError
from poolgen.money import fmt_cents
from poolgen.pdf import faces_styles
from poolgen.pdf.run import RunFolder
from poolgen.pdf.symbols import draw_symbol, has_drawing
from poolgen.rng import derive_stream, integers
from poolgen.spec import Spec, Symbol

__all__ = ["Evaluation", "LAYOUT_COLUMNS", "SELECTION_LABEL", "build_proofs", "default_selection",
           "evaluate", "find_tickets", "required_columns", "selection_seed"]

SELECTION_LABEL = b"poolgen/proof-selection/v1"
PAGE = landscape(letter)
W, H = PAGE
MARGIN = 36
INDEX_ROWS = 30

GOOD = HexColor("#2B8A3E")
BAD = HexColor("#C92A2A")
INK = HexColor("#212529")
GREY = HexColor("#868E96")
WIN_FILL = HexColor("#D3F9D8")


@dataclass(frozen=True)
class Evaluation:
    """What a layout pays by the game's rules, how, and which spots win."""

    prize_cents: int
    lines: tuple[str, ...]
    winning: frozenset[str] = field(default_factory=frozenset)


# ---------------------------------------------------------------------------------------------
# Selection


def selection_seed(manifest_bytes: bytes) -> bytes:
    """The proof-selection seed of a run: a hash of its manifest's exact bytes."""
    return hashlib.sha256(SELECTION_LABEL + manifest_bytes).digest()


def _floyd(stream, n: int, k: int) -> list[int]:
    chosen: set[int] = set()
    for j in range(n - k, n):
        t = int(integers(stream, j + 1, size=1)[0])
        chosen.add(j if t in chosen else t)
    return sorted(chosen)


def default_selection(run: RunFolder, pool_ids: list[str], per_tier: int) -> list[tuple[str, int]]:
    """(pool id, position) of `per_tier` tickets of every tier of each pool (see module doc)."""
    seed = selection_seed(run.manifest_bytes)
    out: list[tuple[str, int]] = []
    for pid in pool_ids:
        entry = run.pool(pid)
        stream = derive_stream(seed, "poolgen/v1", "proof", pid)
        run.require(pid, ["position", "tier"])
        groups = dict(run.collect(pid, lambda lf: lf.group_by("tier").agg(pl.col("position").sort()))
                      .iter_rows())
        for tier in entry["tiers"]:
            positions = groups.get(tier["id"], [])
            if not positions:
                continue
            picks = _floyd(stream, len(positions), min(per_tier, len(positions)))
            out += [(pid, int(positions[i])) for i in picks]
    return out


def find_tickets(run: RunFolder, ids: list[str], pool_ids: list[str]) -> list[tuple[str, int]]:
    """(pool id, position) of each ticket id, in the order asked; an unknown id is an error."""
    found: dict[str, tuple[str, int]] = {}
    for pid in pool_ids:
        run.require(pid, ["ticket", "position"])
        hits = run.collect(pid, lambda lf: lf.filter(pl.col("ticket").is_in(ids))
                           .select("ticket", "position"))
        for ticket, pos in hits.iter_rows():
            found.setdefault(ticket, (pid, int(pos)))
    for t in ids:
        if t not in found:
            where = "any pool" if len(pool_ids) == len(run.pools) else "pool " + ", ".join(pool_ids)
            raise RunError(f"{run.name}: no ticket {t!r} in {where}")
    return [found[t] for t in dict.fromkeys(ids)]


# ---------------------------------------------------------------------------------------------
# Symbols and evaluation, one game at a time (the rules of specs/<game>.md)


def _symbol(table: tuple[Symbol, ...], i: int) -> Symbol:
    if 0 <= i < len(table):
        return table[i]
    return Symbol(group="?", code=f"?{i}", symbol=f"?{i}", caption="unknown", value_cents=None)


def _name(s: Symbol) -> str:
    """'Symbol of a Golden Football' -> 'Golden Football'."""
    text = s.symbol
    for prefix in ("Symbol of an ", "Symbol of a ", "Symbol of the ", "Symbol of "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def _join_money(values: list[int]) -> str:
    return " + ".join(fmt_cents(v) for v in values)


def _eval_happy_holidays(spec: Spec, pool: dict, row: dict) -> Evaluation:
    codes = [row[f"spot_{j}"] for j in range(6)]
    counts = Counter(codes)
    triples = [c for c, n in counts.items() if n >= 3]
    if not triples:
        return Evaluation(0, ("No prize symbol appears three times: no win.",))
    lines, prize, winning = [], 0, set()
    for c in triples:
        s = _symbol(spec.symbols, c)
        spots = [j for j in range(6) if codes[j] == c]
        winning |= {f"spot_{j}" for j in spots}
        value = s.value_cents or 0
        prize += value
        lines.append(f"{counts[c]} x {s.symbol} ({s.caption}) in spots "
                     f"{', '.join(str(j + 1) for j in spots)}: wins {fmt_cents(value)}.")
    if len(triples) > 1 or max(counts.values()) > 3:
        lines.append("ILLEGAL LAYOUT: the game matches exactly three identical symbols, once.")
    return Evaluation(prize, tuple(lines), frozenset(winning))


def _ws_tables(spec: Spec) -> tuple[dict[int, Symbol], tuple[Symbol, ...], tuple[Symbol, ...]]:
    numbers = {int(s.code): s for s in spec.symbols_in("number")}
    prizes = spec.symbols_in("prize")
    bonus = spec.symbols_in("bonus_play") + spec.symbols_in("bonus_prize")
    return numbers, prizes, bonus


def _eval_wild_side(spec: Spec, pool: dict, row: dict) -> Evaluation:
    _, prizes, bonus = _ws_tables(spec)
    mult = spec.play.get("wild_multiplier", 5)
    lucky = {row[f"lucky_{j}"] for j in range(5)}
    winning: set[str] = set()
    lines: list[str] = []
    total = 0
    for area, label, factor in (("your", "YOUR NUMBERS", 1), ("wild", "YOUR WILD NUMBERS", mult)):
        wins = [j for j in range(12) if row[f"{area}_{j}"] in lucky]
        if not wins:
            continue
        values = [_symbol(prizes, row[f"{area}_prize_{j}"]).value_cents or 0 for j in wins]
        paid = factor * sum(values)
        total += paid
        winning |= {f"{area}_{j}" for j in wins}
        winning |= {f"lucky_{j}" for j in range(5)
                    if row[f"lucky_{j}"] in {row[f"{area}_{i}"] for i in wins}}
        n = len(wins)
        shown = _join_money(values) if n <= 6 else " + ".join(
            f"{k} x {fmt_cents(v)}" if k > 1 else fmt_cents(v)
            for v, k in sorted(Counter(values).items(), reverse=True))
        how = f"{factor} x ({shown})" if factor != 1 else shown
        lines.append(f"{label}: {n} match{'es' if n > 1 else ''} with a LUCKY NUMBER: "
                     f"{how} = {fmt_cents(paid)}")
    bwins = [j for j in range(3) if (_symbol(bonus, row[f"bonus_{j}"]).value_cents or 0) > 0]
    if bwins:
        values = [_symbol(bonus, row[f"bonus_{j}"]).value_cents or 0 for j in bwins]
        total += sum(values)
        winning |= {f"bonus_{j}" for j in bwins}
        caps = ", ".join(_symbol(bonus, row[f"bonus_{j}"]).caption for j in bwins)
        lines.append(f"WILD BONUS: {caps} revealed: {_join_money(values)} = "
                     f"{fmt_cents(sum(values))}")
    if not lines:
        lines.append("No YOUR NUMBER or YOUR WILD NUMBER matches a LUCKY NUMBER, and WILD BONUS "
                     "shows no WIN$ symbol: no win.")
    return Evaluation(total, tuple(lines), frozenset(winning))


HTH_OUTCOMES = {0: "UNPLAYED", 1: "LOSE", 2: "TIE", 3: "WIN", 4: "MULTIPLIER"}
HTH_PICK = "R"  # symbols are shown for the pick Rock; the outcome, not the symbol, is stored
HTH_SHOWN = {1: "P", 2: "R", 3: "S", 4: "M"}  # outcome -> symbol seen with pick Rock


def _eval_hand_to_hand_tactics(spec: Spec, pool: dict, row: dict) -> Evaluation:
    codes = [row[f"spot_{i}"] for i in range(15)]
    amts = [row[f"amt_{i}"] for i in range(15)]
    wins = [i for i, c in enumerate(codes) if c == 3]
    m = sum(1 for c in codes if c == 4)
    losses = [i for i, c in enumerate(codes) if c == 1]
    total = sum(amts)
    prize = (1 + m) * total
    lines = []
    if len(losses) >= 3:
        end = losses[2]
        after = f"; spots {end + 2}-15 are never revealed" if end < 14 else ""
        lines.append(f"Play ends at the third loss, spot {end + 1}{after}.")
    else:
        lines.append(f"ILLEGAL LAYOUT: {len(losses)} losses (every share has exactly three).")
    if wins:
        shown = _join_money([amts[i] for i in wins]) if len(wins) <= 6 else \
            f"{len(wins)} wins"
        lines.append(f"Prize legend: {shown} = {fmt_cents(total)}; legend multiplier {1 + m} "
                     f"(1 + {m} multiplier symbol{'s' if m != 1 else ''}).")
        lines.append(f"Prize = {1 + m} x {fmt_cents(total)} = {fmt_cents(prize)}.")
    else:
        lines.append(f"No WIN spot: the prize legend stays at $0.00 (multiplier {1 + m}): no win.")
    return Evaluation(prize, tuple(lines), frozenset(f"spot_{i}" for i in wins))


PP_COIN, PP_GFOOT, PP_TD, PP_FG = 12, 9, 10, 11
PP_MATCHABLE = (1, 2, 3, 4, 5, 6, 7, 8, 13)


def _pp_area(spec: Spec, row: dict, i: int) -> tuple[int, str, frozenset[int]]:
    """What area i pays, one line saying why, and the spots that make the win."""
    codes = [row[f"a{i}_s{j}"] for j in range(4)]
    amount = row[f"a{i}_amount"]
    coins = codes.count(PP_COIN)
    counts = Counter(c for c in codes if c in PP_MATCHABLE)
    best_code, best = (counts.most_common(1)[0] if counts else (None, 0))
    match = coins + best
    trigger = 1 if PP_GFOOT in codes and PP_TD in codes else (
        2 if PP_GFOOT in codes and PP_FG in codes else 0)
    wild = f" ({coins} Coin{'s' if coins > 1 else ''} wild)" if coins and best else ""
    what = _name(_symbol(spec.symbols, best_code - 1)) if best_code else "Coin"
    matching = frozenset(j for j in range(4) if codes[j] in (PP_COIN, best_code))
    if match >= 4:
        return 2 * amount, (f"4 matching {what}{wild}: 2 x {fmt_cents(amount)} = "
                            f"{fmt_cents(2 * amount)}"), matching
    if match == 3:
        return amount, f"3 matching {what}{wild}: {fmt_cents(amount)}", matching
    if trigger:
        n = row[f"a{i}_bonus_prizes"]
        kind = "Touchdown" if trigger == 1 else "Field Goal"
        other = PP_TD if trigger == 1 else PP_FG
        spots = frozenset(j for j in range(4) if codes[j] in (PP_GFOOT, other))
        return n * amount, (f"{kind} bonus, {n} prize{'s' if n != 1 else ''}: {n} x "
                            f"{fmt_cents(amount)} = {fmt_cents(n * amount)}"), spots
    return 0, f"no match of three, no bonus: no win (the {fmt_cents(amount)} is not won)", \
        frozenset()


def _pp_areas(pool: dict) -> int:
    return int(pool.get("play_areas") or 1)


def _eval_primetime_payout(spec: Spec, pool: dict, row: dict) -> Evaluation:
    lines, total, winning = [], 0, set()
    for i in range(_pp_areas(pool)):
        paid, why, spots = _pp_area(spec, row, i)
        total += paid
        if paid:
            winning.add(f"a{i}")
            winning |= {f"a{i}_s{j}" for j in spots}
        lines.append(f"Play area {i + 1}: {why}.")
    if len(lines) > 1:
        lines.append(f"Total of the play areas: {fmt_cents(total)}.")
    return Evaluation(total, tuple(lines), frozenset(winning))


EVALUATORS: dict[str, Callable[[Spec, dict, dict], Evaluation]] = {
    "happy_holidays": _eval_happy_holidays,
    "wild_side": _eval_wild_side,
    "hand_to_hand_tactics": _eval_hand_to_hand_tactics,
    "primetime_payout": _eval_primetime_payout,
}


def evaluate(spec: Spec, pool: dict, row: dict) -> Evaluation:
    """What a ticket's layout pays under its game's rules (specs/<game>.md, section Evaluation)."""
    if spec.styles is not None:  # a game of play styles: poolgen/pdf/faces_styles.py
        return faces_styles.evaluate(spec, pool, row, Evaluation)
    return EVALUATORS[spec.rules](spec, pool, row)


# The layout columns each game's evaluator and ticket face read (specs/<game>.md, section Columns).
LAYOUT_COLUMNS: dict[str, Callable[[dict], list[str]]] = {
    "happy_holidays": lambda pool: [f"spot_{j}" for j in range(6)],
    "wild_side": lambda pool: (
        [f"lucky_{j}" for j in range(5)]
        + [f"{area}{part}_{j}" for area in ("your", "wild") for part in ("", "_prize")
           for j in range(12)]
        + [f"bonus_{j}" for j in range(3)]),
    "hand_to_hand_tactics": lambda pool: [f"{c}_{i}" for c in ("spot", "amt") for i in range(15)],
    "primetime_payout": lambda pool: [
        f"a{i}_{c}" for i in range(_pp_areas(pool))
        for c in ("s0", "s1", "s2", "s3", "amount", "bonus", "bonus_result", "bonus_prizes")],
}


def required_columns(spec: Spec, pool: dict) -> list[str]:
    """Every column a proof page of this pool reads: the common ones, then the game's layout."""
    ids = ["book", "ticket_no"] if spec.kind == "printed" else ["serial"]
    layout = faces_styles.columns(spec) if spec.styles is not None else LAYOUT_COLUMNS[spec.rules](pool)
    return ["position", "ticket", "tier", "prize_cents", *ids, *layout]


# ---------------------------------------------------------------------------------------------
# Drawing helpers


def _fit(text: str, font: str, size: float, width: float) -> float:
    """The largest font size <= size at which text fits in width."""
    w = stringWidth(text, font, size)
    return size if w <= width else max(4.0, size * width / w)


def _centred(c: Canvas, x: float, y: float, text: str, font: str, size: float,
             color: Color = INK, width: float | None = None) -> None:
    if width is not None:
        size = _fit(text, font, size, width)
    c.setFillColor(color)
    c.setFont(font, size)
    c.drawCentredString(x, y, text)


def _left(c: Canvas, x: float, y: float, text: str, font: str, size: float,
          color: Color = INK, width: float | None = None) -> None:
    if width is not None:
        size = _fit(text, font, size, width)
    c.setFillColor(color)
    c.setFont(font, size)
    c.drawString(x, y, text)


def _box(c: Canvas, x: float, y: float, w: float, h: float, *, fill: Color | None = None,
         stroke: Color | None = INK, width: float = 1, radius: float = 4,
         dash: tuple | None = None) -> None:
    c.saveState()
    c.setLineWidth(width)
    if dash:
        c.setDash(*dash)
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
    c.roundRect(x, y, w, h, radius, stroke=1 if stroke is not None else 0,
                fill=1 if fill is not None else 0)
    c.restoreState()


def _spot_frame(c: Canvas, x: float, y: float, w: float, h: float, win: bool,
                fill: Color = white) -> None:
    if win:
        _box(c, x, y, w, h, fill=WIN_FILL, stroke=GOOD, width=2.5, radius=5)
    else:
        _box(c, x, y, w, h, fill=fill, stroke=GREY, width=0.8, radius=5)


def _panel(c: Canvas, x: float, y: float, w: float, h: float, title: str, color: Color,
           note: str = "") -> None:
    _box(c, x, y, w, h, fill=HexColor("#FFFFFF"), stroke=color, width=1.5, radius=6)
    c.setFillColor(color)
    c.roundRect(x, y + h - 15, w, 15, 6, stroke=0, fill=1)
    c.rect(x, y + h - 15, w, 7, stroke=0, fill=1)
    _left(c, x + 6, y + h - 11, title, "Helvetica-Bold", 9, white, width=w - 12)
    if note:
        tw = stringWidth(title, "Helvetica-Bold", 9)
        _left(c, x + 14 + tw, y + h - 11, note, "Helvetica", 7.5, white, width=w - tw - 24)


# ---------------------------------------------------------------------------------------------
# Faces. Each draws into the box (x, y, w, h) and marks winning spots with a green outline.


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
    "wild_side": _face_wild_side,
    "hand_to_hand_tactics": _face_hand_to_hand_tactics,
    "primetime_payout": _face_primetime_payout,
}


# ---------------------------------------------------------------------------------------------
# Pages


@dataclass(frozen=True)
class _Ticket:
    pool: dict
    row: dict
    ev: Evaluation


def _tier_label(tier_id: str) -> str:
    return "losing tier" if tier_id == "lose" else f"tier {tier_id}"


def _header(c: Canvas, run: RunFolder, title: str, page: int, pages: int) -> None:
    _left(c, MARGIN, H - MARGIN - 8, title, "Helvetica-Bold", 15, INK, width=W - 2 * MARGIN - 90)
    c.setFont("Helvetica", 8)
    c.setFillColor(GREY)
    c.drawRightString(W - MARGIN, H - MARGIN - 6, f"page {page} of {pages}")
    c.drawString(MARGIN, 20, f"Ticket proof of run {run.manifest.get('run_id', run.path.name)}  "
                             f"(manifest SHA-256 "
                             f"{hashlib.sha256(run.manifest_bytes).hexdigest()[:16]}...)")
    c.drawRightString(W - MARGIN, 20, "poolgen proof")


def _statement(c: Canvas, t: _Ticket, x: float, y: float, w: float, h: float) -> None:
    recorded = t.row["prize_cents"]
    agrees = recorded == t.ev.prize_cents
    _box(c, x, y, w, h, fill=white, stroke=GOOD if agrees else BAD, width=1.5, radius=6)
    _left(c, x + 12, y + h - 22, f"THIS LAYOUT PAYS {fmt_cents(t.ev.prize_cents)}",
          "Helvetica-Bold", 15, GOOD if t.ev.prize_cents else INK)
    verdict = "agrees" if agrees else "DOES NOT AGREE with the layout"
    c.setFont("Helvetica-Bold", 9)
    c.setFillColor(GOOD if agrees else BAD)
    c.drawRightString(x + w - 12, y + h - 20,
                      f"Pool record: {_tier_label(t.row['tier'])}, prize "
                      f"{fmt_cents(recorded)} - {verdict}")
    ly = y + h - 36
    for line in t.ev.lines:
        for part in simpleSplit(line, "Helvetica", 8.5, w - 24):
            if ly < y + 5:
                return
            _left(c, x + 12, ly, part, "Helvetica", 8.5, BAD if "ILLEGAL" in part else INK)
            ly -= 10.5
    if t.ev.winning and ly >= y + 5:
        _left(c, x + 12, ly, "Winning spots are outlined in green (a proof mark, not printed on "
              "the ticket).", "Helvetica-Oblique", 7.5, GREY)


def _ticket_page(c: Canvas, run: RunFolder, spec: Spec, t: _Ticket, n: int, count: int,
                 page: int, pages: int) -> None:
    row, pool = t.row, t.pool
    if spec.kind == "printed":
        title = (f"{spec.name} (game {spec.number}), {fmt_cents(pool['price_cents'])} ticket "
                 f"{row['ticket']}")
        sub = (f"Pool {pool['id']}, position {row['position']:,}, book {row['book']:07d}, "
               f"ticket {row['ticket_no']:03d}, {_tier_label(row['tier'])}")
    else:
        title = f"{spec.name} (eInstant), {fmt_cents(pool['price_cents'])} share {row['ticket']}"
        sub = (f"Pool {pool['id']}, serial {row['serial']:07d}, position {row['position']:,}, "
               f"{_tier_label(row['tier'])}")
    _header(c, run, title, page, pages)
    _left(c, MARGIN, H - MARGIN - 22, f"Proof {n} of {count}.  {sub}", "Helvetica", 9.5, INK,
          width=W - 2 * MARGIN)
    face_top = H - MARGIN - 32
    face_bottom = 36 + 104 + (14 if spec.kind == "printed" else 6)
    face = faces_styles.draw if spec.styles is not None else FACES[spec.rules]
    face(c, spec, pool, row, t.ev, MARGIN, face_bottom, W - 2 * MARGIN, face_top - face_bottom)
    _statement(c, t, MARGIN, 36, W - 2 * MARGIN, 98)


def _key_entries(spec: Spec) -> tuple[list[Symbol], list[Symbol], str]:
    """(drawn symbols, text symbols, a note) for the cover's symbol key."""
    drawn = [s for s in spec.symbols if has_drawing(s.code) and s.group != "number"]
    text = [s for s in spec.symbols if not has_drawing(s.code) and s.group != "number"]
    numbers = spec.symbols_in("number")
    note = ""
    if numbers:
        note = "Numbers: " + ", ".join(f"{s.symbol} {s.caption}" for s in numbers)
    if spec.rules == "primetime_payout":
        note = ("Coin: wild, matches any symbol except Golden Football, Touchdown and Field Goal. "
                "Golden Football with Touchdown: Touchdown bonus game; Golden Football with Field "
                "Goal: Field Goal bonus game. Three matching symbols win the area's prize, four "
                "win double.")
    if spec.rules == "hand_to_hand_tactics":
        note = ("Spot backgrounds: green WIN (reveals an amount), red LOSE, white TIE, violet "
                "MULTIPLIER, grey dashed: not played (after the third loss).")
    return drawn, text, note


def _cover(c: Canvas, run: RunFolder, spec: Spec, selection: str, count: int, pages: int) -> None:
    m = run.manifest
    g = m["game"]
    _header(c, run, "Ticket proofs", 1, pages)
    y = H - MARGIN - 40
    number = f" (game {g['number']})" if g.get("number") else ""
    lines = [
        ("Game", f"{g['name']}{number}, {g['regulation']}, {g['kind']}"),
        ("Run", f"{m.get('run_id', run.path.name)}, created {m.get('created', '?')}, "
                f"{len(run.pools)} pool(s)"),
        ("Manifest SHA-256", hashlib.sha256(run.manifest_bytes).hexdigest()),
        ("Spec", f"{spec.path.name}, SHA-256 {spec.sha256}"),
        ("Selection", selection),
        ("Pages", f"{count} ticket(s), one a page, after this cover and "
                  f"{pages - 1 - count} index page(s)"),
    ]
    for label, value in lines:
        _left(c, MARGIN, y, label, "Helvetica-Bold", 9.5)
        parts = simpleSplit(value, "Helvetica", 9.5, W - 2 * MARGIN - 110)
        for part in parts:
            _left(c, MARGIN + 110, y, part, "Helvetica", 9.5)
            y -= 12.5
        y -= 3
    y -= 8
    _left(c, MARGIN, y, "Symbol key", "Helvetica-Bold", 12)
    y -= 10
    drawn, text, note = _key_entries(spec)
    size, cell = 40, 62
    per_row = int((W - 2 * MARGIN) // cell)
    for i, s in enumerate(drawn):
        if i % per_row == 0:
            y -= size + 16
        draw_symbol(c, s.code, MARGIN + (i % per_row) * cell + (cell - size) / 2, y, size,
                    s.caption or _name(s), 7)
    tw, thh = 62, 34
    per_row = int((W - 2 * MARGIN) // tw)
    for i, s in enumerate(text):
        if i % per_row == 0:
            y -= thh + 6
        sx = MARGIN + (i % per_row) * tw
        _box(c, sx + 2, y, tw - 4, thh, fill=white, stroke=GREY, width=0.8)
        _centred(c, sx + tw / 2, y + 17, s.symbol, "Helvetica-Bold", 11, INK, width=tw - 8)
        _centred(c, sx + tw / 2, y + 6, s.caption, "Helvetica", 6.5, GREY, width=tw - 8)
    if note:
        y -= 14
        for part in simpleSplit(note, "Helvetica", 7.5, W - 2 * MARGIN):
            _left(c, MARGIN, y, part, "Helvetica", 7.5, INK)
            y -= 9.5


def _index(c: Canvas, run: RunFolder, tickets: list[_Ticket], first: int, page: int,
           pages: int, first_ticket_page: int) -> None:
    _header(c, run, "Index of the proofs", page, pages)
    cols = [("#", 0), ("page", 40), ("pool", 90), ("tier", 170), ("ticket", 260),
            ("prize (record)", 420), ("layout pays", 530)]
    y = H - MARGIN - 36
    for name, dx in cols:
        _left(c, MARGIN + dx, y, name, "Helvetica-Bold", 9)
    y -= 14
    for n in range(first, min(first + INDEX_ROWS, len(tickets))):
        t = tickets[n]
        agrees = t.ev.prize_cents == t.row["prize_cents"]
        values = [str(n + 1), str(first_ticket_page + n), t.pool["id"], t.row["tier"],
                  t.row["ticket"], fmt_cents(t.row["prize_cents"]),
                  fmt_cents(t.ev.prize_cents) + ("" if agrees else "  DISAGREES")]
        for (_, dx), v in zip(cols, values, strict=True):
            _left(c, MARGIN + dx, y, v, "Helvetica", 9, INK if agrees else BAD)
        y -= 15.5


def build_proofs(run: RunFolder, spec: Spec, picks: list[tuple[str, int]], selection: str) -> bytes:
    """The proof PDF of the tickets at `picks` ((pool id, position), in page order)."""
    if spec.styles is None and (spec.rules not in EVALUATORS or spec.rules not in FACES):
        raise RunError(f"{run.name}: no ticket proofs for game rules {spec.rules!r}")
    rows: dict[tuple[str, int], dict] = {}
    for pid in dict.fromkeys(p for p, _ in picks):
        run.require(pid, required_columns(spec, run.pool(pid)))
        wanted = sorted({pos for p, pos in picks if p == pid})
        for r in run.rows(pid, wanted).iter_rows(named=True):
            rows[(pid, r["position"])] = r
    tickets = []
    for pid, pos in picks:
        if (pid, pos) not in rows:
            raise RunError(f"{run.name}: pool {pid} has no position {pos}")
        pool = run.pool(pid)
        tickets.append(_Ticket(pool, rows[(pid, pos)], evaluate(spec, pool, rows[(pid, pos)])))
    index_pages = max(1, -(-len(tickets) // INDEX_ROWS))
    pages = 1 + index_pages + len(tickets)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=PAGE, invariant=1, pageCompression=1)
    c.setTitle(f"Ticket proofs: {spec.name}, run {run.manifest.get('run_id', run.path.name)}")
    c.setAuthor("poolgen")
    c.setSubject("ticket proofs")
    c.setCreator("poolgen proof")
    _cover(c, run, spec, selection, len(tickets), pages)
    c.showPage()
    for k in range(index_pages):
        _index(c, run, tickets, k * INDEX_ROWS, 2 + k, pages, 2 + index_pages)
        c.showPage()
    for n, t in enumerate(tickets):
        _ticket_page(c, run, spec, t, n + 1, len(tickets), 2 + index_pages + n, pages)
        c.showPage()
    c.save()
    return buf.getvalue()


def page_count(tickets: int) -> int:
    """Pages of a proof of this many tickets: cover, index pages, one page per ticket."""
    return 1 + max(1, -(-tickets // INDEX_ROWS)) + tickets

