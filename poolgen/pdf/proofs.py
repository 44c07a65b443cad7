"""Ticket proofs: tickets of a run drawn as a player would see them, one a page, with what they pay.

Pages: a cover (run, selection rule, the game's symbol key), an index of the tickets, then one
page per ticket: the ticket face (printed games) or the fully revealed share (eInstants), and a
statement of the prize the layout pays, evaluated from the layout columns by the play styles'
contracts (docs/styles/) and compared with the prize the pool records for the ticket.

Which tickets by default: poolgen/pdf/selection.py. What a layout pays: poolgen/pdf/evaluation.py.
The ticket faces: poolgen/pdf/faces/ (areas.py for a ticket of play areas, <style>.py for a
ticket-wide style; what they share: common.py).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.colors import Color, white
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from poolgen.deliverables.identity import barcode
from poolgen.errors import RunError
from poolgen.game.model import Game, Printed, Symbol
from poolgen.money import Currency, fmt_cents
from poolgen.pdf.barcode import BARCODE_STRIP, draw_barcode
from poolgen.pdf.draw import BAD, GOOD, GREY, INK, box, centred, fitted, left
from poolgen.pdf.evaluation import Evaluation, evaluate, required_columns
from poolgen.pdf.faces import face_of
from poolgen.pdf.faces.common import Row, name_of
from poolgen.pdf.symbols import draw_symbol, has_drawing
from poolgen.run.folder import RunFolder

__all__ = ["INDEX_ROWS", "OUTCOME_AUDIENCE", "SPECIMEN_AUDIENCE", "build_proofs", "build_specimen_proofs",
           "page_count"]

PAGE = landscape(letter)
W, H = PAGE
MARGIN = 36
INDEX_ROWS = 30
SPECIMEN_AUDIENCE = ("anyone: specimens are laid out afresh, no ticket of the pool (game staff, "
                     "regulator, printer, artwork and marketing)")
OUTCOME_AUDIENCE = ("only those the operator trusts with outcomes (security, the regulator's auditor): "
                    "these are tickets of the pool with what they pay; the file is mode 0600")


@dataclass(frozen=True)
class _Ticket:
    pool: Row  # the pool's manifest entry
    row: Row  # the ticket's row of the pool file, or a specimen's (poolgen/pdf/specimens.py)
    ev: Evaluation
    specimen: bool = False


def _tier_label(tier_id: str) -> str:
    return "losing tier" if tier_id == "lose" else f"tier {tier_id}"


def _header(c: Canvas, run: RunFolder, title: str, page: int, pages: int, specimens: bool) -> None:
    left(c, MARGIN, H - MARGIN - 8, title, "Helvetica-Bold", 15, INK, width=W - 2 * MARGIN - 90)
    c.setFont("Helvetica", 8)
    c.setFillColor(GREY)
    c.drawRightString(W - MARGIN, H - MARGIN - 6, f"page {page} of {pages}")
    what = "Specimen proof (no ticket of the pool)" if specimens else "Ticket proof (OUTCOMES: restricted)"
    c.drawString(MARGIN, 20, f"{what} of run {run.manifest.get('run_id', run.path.name)}  "
                             f"(manifest SHA-256 "
                             f"{hashlib.sha256(run.manifest_bytes).hexdigest()[:16]}...)")
    c.drawRightString(W - MARGIN, 20, "poolgen proof")


def _statement(c: Canvas, t: _Ticket, cur: Currency, x: float, y: float, w: float, h: float) -> None:
    recorded = t.row["prize_cents"]
    agrees = recorded == t.ev.prize_cents
    box(c, x, y, w, h, fill=white, stroke=GOOD if agrees else BAD, width=1.5, radius=6)
    left(c, x + 12, y + h - 22, f"THIS LAYOUT PAYS {fmt_cents(t.ev.prize_cents, cur)}",
          "Helvetica-Bold", 15, GOOD if t.ev.prize_cents else INK)
    verdict = "agrees" if agrees else "DOES NOT AGREE with the layout"
    c.setFont("Helvetica-Bold", 9)
    c.setFillColor(GOOD if agrees else BAD)
    source = "Specimen of" if t.specimen else "Pool record:"
    c.drawRightString(x + w - 12, y + h - 20,
                      f"{source} {_tier_label(t.row['tier'])}, prize "
                      f"{fmt_cents(recorded, cur)} - {verdict}")
    top, bottom = y + h - 36, y + 5
    rows = int((top - bottom) // 10.5) + 1
    parts = [(k, p) for k, line in enumerate(t.ev.lines)
             for p in simpleSplit(line, "Helvetica", 8.5, w - 24)]
    columns, width = 1, w - 24
    if len(parts) > rows:  # two columns, then what still does not fit is counted, never dropped silently
        columns, width = 2, (w - 36) / 2
        parts = [(k, p) for k, line in enumerate(t.ev.lines)
                 for p in simpleSplit(line, "Helvetica", 8, width)]
    room = rows * columns
    shown = parts if len(parts) <= room else parts[:room - 1]
    if len(shown) < len(parts):
        while shown and shown[-1][0] == parts[len(shown)][0]:  # a line is shown whole or not at all
            shown = shown[:-1]
    for i, (_, part) in enumerate(shown):
        col, r_ = divmod(i, rows)
        left(c, x + 12 + col * (width + 12), top - r_ * 10.5, part, "Helvetica",
             8.5 if columns == 1 else 8, BAD if "ILLEGAL" in part else INK)
    if len(shown) < len(parts):
        cut = {k for k, _ in parts[len(shown):]}  # lines with a part not shown: counted, not dropped
        left(c, x + 12 + (columns - 1) * (width + 12), top - (rows - 1) * 10.5,
             f"... and {len(cut)} more line(s) not shown for room; the prize above is the whole "
             f"layout's", "Helvetica-Oblique", 8, BAD)
    elif t.ev.winning and len(parts) < room and columns == 1:
        left(c, x + 12, top - len(parts) * 10.5, "Winning spots are outlined in green (a proof mark, not "
             "printed on the ticket).", "Helvetica-Oblique", 7.5, GREY)


STATEMENT_H = 98.0  # the statement's box at its tallest (then in two columns, cut short with a count)


def _statement_height(t: _Ticket, w: float) -> float:
    """The statement's box just tall enough for its lines in one column and the note on winning spots,
    at most STATEMENT_H: what it does not take goes to the ticket face, whose spots it enlarges (Wild
    Side's prize amounts were 5.3 points under a box of 98 showing two lines)."""
    parts = sum(len(simpleSplit(line, "Helvetica", 8.5, w - 24)) for line in t.ev.lines)
    rows = parts + (1 if t.ev.winning else 0)
    return min(STATEMENT_H, max(64.0, 41 + (rows - 1) * 10.5 + 6))


def _ticket_page(c: Canvas, run: RunFolder, game: Game, t: _Ticket, n: int, count: int,
                 page: int, pages: int) -> None:
    row, pool = t.row, t.pool
    printed = isinstance(game.sales, Printed)
    kind = "SPECIMEN " if t.specimen else ""
    if printed:
        title = (f"{game.name} (game {game.number}), {fmt_cents(pool['price_cents'], game.currency)} "
                 f"{kind}ticket {row['ticket']}")
        sub = (f"Pool {pool['id']}, position {row['position']:,}, book {row['book']:07d}, "
               f"ticket {row['ticket_no']:03d}, {_tier_label(row['tier'])}")
    else:
        title = (f"{game.name} (eInstant), {fmt_cents(pool['price_cents'], game.currency)} {kind}share "
                 f"{row['ticket']}")
        sub = (f"Pool {pool['id']}, serial {row['serial']:07d}, position {row['position']:,}, "
               f"{_tier_label(row['tier'])}")
    if t.specimen:
        sub = (f"Pool {pool['id']}, {_tier_label(row['tier'])}: a specimen laid out afresh by the "
               f"game's styles, not a ticket of the pool")
    _header(c, run, title, page, pages, t.specimen)
    left(c, MARGIN, H - MARGIN - 22, f"Proof {n} of {count}.  {sub}", "Helvetica", 9.5, INK,
          width=W - 2 * MARGIN)
    statement_h = _statement_height(t, W - 2 * MARGIN)
    face_top = H - MARGIN - 32
    face_bottom = 36 + statement_h + 6 + (BARCODE_STRIP if printed else 6)
    face_of(game).draw(c, game, pool, row, t.ev, MARGIN, face_bottom, W - 2 * MARGIN, face_top - face_bottom)
    if printed:
        assert game.number is not None  # a printed game's number is required (poolgen/loader)
        number = row.get("barcode") or barcode(game.number, row["book"], row["ticket_no"])
        draw_barcode(c, number, MARGIN, 36 + statement_h + 6 + 4)
    if t.specimen:
        _watermark(c, MARGIN, face_bottom, W - 2 * MARGIN, face_top - face_bottom)
    _statement(c, t, game.currency, MARGIN, 36, W - 2 * MARGIN, statement_h)


def _watermark(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """SPECIMEN across the face: a proof of a specimen can never pass for a ticket."""
    c.saveState()
    c.setFillColor(Color(0.79, 0.16, 0.16, alpha=0.22))
    c.setFont("Helvetica-Bold", 64)
    c.translate(x + w / 2, y + h / 2)
    c.rotate(18)
    c.drawCentredString(0, -20, "SPECIMEN")
    c.restoreState()


def _key_entries(game: Game) -> tuple[list[Symbol], list[Symbol], str]:
    """(drawn symbols, text symbols, a note) for the cover's symbol key."""
    drawn = [s for s in game.symbols if has_drawing(s.code) and s.group != "number"]
    text = [s for s in game.symbols if not has_drawing(s.code) and s.group != "number"]
    return drawn, text, face_of(game).key_note(game)


def _cover(c: Canvas, run: RunFolder, game: Game, selection: str, count: int, pages: int,
           specimens: bool) -> None:
    m = run.manifest
    g = m["game"]
    _header(c, run, "Specimen proofs" if specimens else "Ticket proofs: OUTCOMES, restricted", 1, pages,
            specimens)
    y = H - MARGIN - 40
    number = f" (game {g['number']})" if g.get("number") else ""
    lines = [
        ("Game", f"{g['name']}{number}, {g['regulation']}, {g['kind']}"),
        ("Run", f"{m.get('run_id', run.path.name)}, created {m.get('created', '?')}, "
                f"{len(run.pools)} pool(s)"),
        ("Manifest SHA-256", hashlib.sha256(run.manifest_bytes).hexdigest()),
        ("Spec", f"{game.path.name}, SHA-256 {game.sha256}"),
        ("Selection", selection),
        ("Who may receive", SPECIMEN_AUDIENCE if specimens else OUTCOME_AUDIENCE),
        ("Pages", f"{count} ticket(s), one a page, after this cover and "
                  f"{pages - 1 - count} index page(s)"),
    ]
    for label, value in lines:
        left(c, MARGIN, y, label, "Helvetica-Bold", 9.5)
        parts = simpleSplit(value, "Helvetica", 9.5, W - 2 * MARGIN - 110)
        for part in parts:
            left(c, MARGIN + 110, y, part, "Helvetica", 9.5)
            y -= 12.5
        y -= 3
    y -= 8
    left(c, MARGIN, y, "Symbol key", "Helvetica-Bold", 12)
    y -= 10
    drawn, text, note = _key_entries(game)
    size, cell = 40, 62
    per_row = int((W - 2 * MARGIN) // cell)
    for i, s in enumerate(drawn):
        if i % per_row == 0:
            y -= size + 16
        draw_symbol(c, s.code, MARGIN + (i % per_row) * cell + (cell - size) / 2, y, size,
                    s.caption or name_of(s), 7)
    thh, sx = 34, W  # a text symbol's box as wide as its words at 9 and 6.5 points (at least 62): a
    # symbol such as "Symbol of a lizard" shrunk into 62 points ran over its neighbours
    for s in text:
        tw = min(W - 2 * MARGIN, max(62.0, stringWidth(s.symbol, "Helvetica-Bold", 9) + 12,
                                     stringWidth(s.caption, "Helvetica", 6.5) + 12))
        if sx + tw > W - MARGIN:
            y, sx = y - thh - 6, MARGIN
        box(c, sx + 2, y, tw - 4, thh, fill=white, stroke=GREY, width=0.8)
        bold = fitted(s.symbol, "Helvetica-Bold", 11, tw - 8)
        plain = fitted(s.caption, "Helvetica", 6.5, tw - 8)
        centred(c, sx + tw / 2, y + 17, s.symbol, "Helvetica-Bold", bold, INK)
        centred(c, sx + tw / 2, y + 6, s.caption, "Helvetica", plain, GREY)
        sx += tw
    if note:
        y -= 14
        for part in simpleSplit(note, "Helvetica", 7.5, W - 2 * MARGIN):
            left(c, MARGIN, y, part, "Helvetica", 7.5, INK)
            y -= 9.5


def _index(c: Canvas, run: RunFolder, tickets: list[_Ticket], first: int, page: int,
           pages: int, first_ticket_page: int, cur: Currency) -> None:
    _header(c, run, "Index of the proofs", page, pages, tickets[0].specimen if tickets else True)
    cols = [("#", 0), ("page", 40), ("pool", 90), ("tier", 170), ("ticket", 260),
            ("prize (record)", 420), ("layout pays", 530)]
    y = H - MARGIN - 36
    for name, dx in cols:
        left(c, MARGIN + dx, y, name, "Helvetica-Bold", 9)
    y -= 14
    for n in range(first, min(first + INDEX_ROWS, len(tickets))):
        t = tickets[n]
        agrees = t.ev.prize_cents == t.row["prize_cents"]
        values = [str(n + 1), str(first_ticket_page + n), t.pool["id"], t.row["tier"],
                  t.row["ticket"], fmt_cents(t.row["prize_cents"], cur),
                  fmt_cents(t.ev.prize_cents, cur) + ("" if agrees else "  DISAGREES")]
        for (_, dx), v in zip(cols, values, strict=True):
            left(c, MARGIN + dx, y, v, "Helvetica", 9, INK if agrees else BAD)
        y -= 15.5


def build_proofs(run: RunFolder, game: Game, picks: list[tuple[str, int]], selection: str) -> bytes:
    """The proof PDF of the pool's tickets at `picks` ((pool id, position), in page order): an
    outcome file (who may hold it: OUTCOME_AUDIENCE)."""
    rows: dict[tuple[str, int], Row] = {}
    for pid in dict.fromkeys(p for p, _ in picks):
        run.require(pid, required_columns(game, run.pool(pid)))
        wanted = sorted({pos for p, pos in picks if p == pid})
        for r in run.rows(pid, wanted).iter_rows(named=True):
            rows[(pid, r["position"])] = r
    tickets: list[_Ticket] = []
    for pid, pos in picks:
        if (pid, pos) not in rows:
            raise RunError(f"{run.name}: pool {pid} has no position {pos}")
        pool = run.pool(pid)
        tickets.append(_Ticket(pool, rows[(pid, pos)], evaluate(game, pool, rows[(pid, pos)])))
    return _document(run, game, tickets, selection, specimens=False)


def build_specimen_proofs(run: RunFolder, game: Game, specimens: Sequence[tuple[str, Row]],
                          selection: str) -> bytes:
    """The proof PDF of specimens ((pool id, row) of poolgen/pdf/specimens.py): no ticket of the pool."""
    tickets = [_Ticket(run.pool(pid), row, evaluate(game, run.pool(pid), row), specimen=True)
               for pid, row in specimens]
    return _document(run, game, tickets, selection, specimens=True)


def _document(run: RunFolder, game: Game, tickets: list[_Ticket], selection: str, specimens: bool) -> bytes:
    index_pages = max(1, -(-len(tickets) // INDEX_ROWS))
    pages = 1 + index_pages + len(tickets)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=PAGE, invariant=1, pageCompression=1)
    what = "Specimen proofs" if specimens else "Ticket proofs (outcomes)"
    c.setTitle(f"{what}: {game.name}, run {run.manifest.get('run_id', run.path.name)}")
    c.setAuthor("poolgen")
    c.setSubject(what.lower())
    c.setCreator("poolgen proof")
    _cover(c, run, game, selection, len(tickets), pages, specimens)
    c.showPage()
    for k in range(index_pages):
        _index(c, run, tickets, k * INDEX_ROWS, 2 + k, pages, 2 + index_pages, game.currency)
        c.showPage()
    for n, t in enumerate(tickets):
        _ticket_page(c, run, game, t, n + 1, len(tickets), 2 + index_pages + n, pages)
        c.showPage()
    c.save()
    return buf.getvalue()


def page_count(tickets: int) -> int:
    """Pages of a proof of this many tickets: cover, index pages, one page per ticket."""
    return 1 + max(1, -(-tickets // INDEX_ROWS)) + tickets
