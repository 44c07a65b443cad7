"""The audit report: what a run claims, whether it verifies, and how its prizes are spread.

Sections: a title page (game, regulation, run, creation time, signer, seed commitment, totals);
the verification checklist of `audit.verify` (run only with a public key: the report never claims
a check it did not make); with a spec, the published-figure cross-check of `poolgen.check`; then
for every pool its prize structure table (from the manifest, with the tier counts recounted from
the pool file) and a page of charts: winners and prize value per book (printed games) or per block
of 10,000 shares (eInstants), and the positions of the top prizes, where clustering would show;
and a page of the pool's statistics, the figures of verify's step 8 (poolgen/pdf/stats_page.py).
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import (
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from poolgen.check import GameCheck, round_half_up
from poolgen.errors import RunError
from poolgen.money import fmt_cents
from poolgen.pdf.run import RunFolder
from poolgen.spec import Spec

__all__ = ["BLOCK", "Verification", "build_report", "run_verification"]

BLOCK = 10_000  # eInstant shares per block in the distribution charts
TOP_GROUPS = 3  # prize amounts shown in the top-prize position chart
LISTED = 12  # positions written out when a top prize has at most this many tickets
RUG_MAX = 1_000  # most ticks in one row of the top-prize chart (the first row excepted)

GOOD = colors.HexColor("#2B8A3E")
BAD = colors.HexColor("#C92A2A")
SKIP = colors.HexColor("#E67700")
INK = colors.HexColor("#212529")
GREY = colors.HexColor("#868E96")
BLUE = colors.HexColor("#1C7ED6")
ORANGE = colors.HexColor("#F76707")
HEAD = colors.HexColor("#E9ECEF")


@dataclass(frozen=True)
class Step:
    number: int
    title: str
    status: str  # "pass", "fail" or "skip"
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Verification:
    """The verifier's checklist for the report, or why it was not run."""

    ran: bool
    note: str
    key_fingerprint: str | None = None
    steps: tuple[Step, ...] = field(default_factory=tuple)

    failed: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return self.ran and not self.failed


def run_verification(run: RunFolder, public_key: Path | None, spec: Path | None) -> Verification:
    """Run audit.verify's checklist on the run, if there is a key to check the signature with."""
    if public_key is None:
        return Verification(False, "Verification was not run: no --public-key was given. Give the "
                                   "run's public key to include the checklist of `poolgen verify`.")
    try:
        from audit.errors import UnusableInput
        from audit.verify import verify_run
    except ImportError:
        return Verification(False, "Verification was not run: this installation has no verifier "
                                   "(audit.verify).")
    workers = max(1, min(len(run.pools), os.cpu_count() or 1))
    try:
        result = verify_run(run.path, public_key, spec=spec, workers=workers)
    except UnusableInput as exc:
        raise RunError(str(exc)) from None
    from poolgen.pdf.stats_page import checklist_lines

    steps = tuple(Step(s.step, s.title, s.status, checklist_lines(s)) for s in result.steps)
    failed = result.failed
    skipped = [f"{s.number} ({s.title}: {'; '.join(s.lines)})" for s in steps
               if s.status == "skip" and s.number not in failed]
    if failed:
        note = f"FAILED: step(s) {', '.join(str(n) for n in failed)}."
    elif skipped:
        note = f"Every step asked for passes; not asked for: step {', '.join(skipped)}."
    else:
        note = "Every step passes."
    return Verification(True, note, result.key_fingerprint, steps, tuple(failed))


# ---------------------------------------------------------------------------------------------
# Text helpers

_styles = getSampleStyleSheet()
BODY = ParagraphStyle("body", parent=_styles["BodyText"], fontName="Helvetica", fontSize=9.5,
                      leading=12.5)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8, leading=10)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=9.5)
MONO = ParagraphStyle("mono", parent=BODY, fontName="Courier", fontSize=8, leading=10)
H1 = ParagraphStyle("h1", parent=_styles["Heading1"], fontName="Helvetica-Bold", fontSize=18,
                    leading=22, spaceAfter=8)
H2 = ParagraphStyle("h2", parent=_styles["Heading2"], fontName="Helvetica-Bold", fontSize=13,
                    leading=16, spaceBefore=6, spaceAfter=6)
TITLE = ParagraphStyle("title", parent=H1, fontSize=26, leading=32, alignment=TA_CENTER)
SUBTITLE = ParagraphStyle("subtitle", parent=BODY, fontSize=12, leading=16, alignment=TA_CENTER)


def _esc(text: object) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _p(text: str, style: ParagraphStyle = BODY) -> Paragraph:
    return Paragraph(text, style)


def _odds(tickets: int, count: int) -> str:
    return f"{round_half_up(Fraction(tickets, count), 2):,}" if count else "-"


def _pct(num: int, den: int) -> str:
    return f"{round_half_up(Fraction(100 * num, den), 2)}%" if den else "-"


def _grid(rows: list[list], widths: list[float], *, right_from: int = 1,
          total_rows: int = 0, header: bool = True) -> Table:
    t = Table(rows, colWidths=widths, repeatRows=1 if header else 0)
    style = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("ALIGN", (right_from, 0), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, -1), (-1, -1), 0.5, GREY),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    if header:
        style += [("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
                  ("BACKGROUND", (0, 0), (-1, 0), HEAD),
                  ("LINEBELOW", (0, 0), (-1, 0), 0.5, GREY)]
    if total_rows:
        style += [("FONT", (0, -total_rows), (-1, -1), "Helvetica-Bold", 8),
                  ("LINEABOVE", (0, -total_rows), (-1, -total_rows), 0.8, INK)]
    t.setStyle(TableStyle(style))
    return t


# ---------------------------------------------------------------------------------------------
# Sections


def _title_page(run: RunFolder) -> list:
    m = run.manifest
    g = m["game"]
    number = f"game {g['number']}, " if g.get("number") else ""
    sig = m.get("signature") or {}
    if sig.get("signed") and sig.get("key_fingerprint"):
        signer = _esc(sig["key_fingerprint"])
    elif sig.get("signed") is False:
        signer = "none: the run is unsigned (the manifest says \"signed\": false)"
    else:
        signer = "not stated in the manifest"
    commit = m.get("seed_commitment") or {}
    t = m.get("totals") or {}
    rows = [
        ("Game", f"{_esc(g['name'])} ({number}{_esc(g['kind'])})"),
        ("Regulation", _esc(g["regulation"])),
        ("Run", _esc(m.get("run_id", run.path.name))),
        ("Created", _esc(m.get("created", "not stated"))),
        ("Tool", _esc(f"{m.get('tool', {}).get('name', '?')} "
                      f"{m.get('tool', {}).get('version', '')}")),
        ("Spec", _esc(f"{m.get('spec', {}).get('file', '?')}, SHA-256 "
                      f"{m.get('spec', {}).get('sha256', '?')}")),
        ("Signer key fingerprint", signer),
        ("Seed commitment", _esc(f"{commit.get('value', 'not stated')}")),
        ("Commitment rule", _esc(commit.get("algorithm", "not stated"))),
        ("Manifest SHA-256", hashlib.sha256(run.manifest_bytes).hexdigest()),
        ("DRBG", _esc(m.get("drbg", {}).get("algorithm", "not stated"))),
    ]
    if t:
        rows += [
            ("Pools", f"{t.get('pools', len(run.pools))}: "
                      f"{_esc(', '.join(p['id'] for p in run.pools))}"),
            ("Tickets", f"{t['tickets']:,}, of which {t['winners']:,} win "
                        f"(overall odds 1 in {_odds(t['tickets'], t['winners'])})"),
            ("Prize cost", f"{fmt_cents(t['prize_cost_cents'])} of sales "
                           f"{fmt_cents(t['sales_cents'])}: payout "
                           f"{_pct(t['prize_cost_cents'], t['sales_cents'])}"),
        ]
    table = Table([[_p(f"<b>{k}</b>", SMALL), _p(v, SMALL)] for k, v in rows],
                  colWidths=[1.55 * inch, 5.2 * inch])
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("TOPPADDING", (0, 0), (-1, -1), 2),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]))
    streams = m.get("drbg", {}).get("streams", [])
    return [
        Spacer(1, 1.2 * inch),
        _p("Audit report", TITLE),
        _p(f"{_esc(g['name'])}, {_esc(g['regulation'])}", SUBTITLE),
        _p(f"run {_esc(m.get('run_id', run.path.name))}", SUBTITLE),
        Spacer(1, 0.5 * inch),
        table,
        Spacer(1, 10),
        _p("<b>Derived DRBG streams</b> (labels; the seed itself is never recorded): "
           + _esc(", ".join(streams)), SMALL),
        PageBreak(),
    ]


STATUS_COLOR = {"pass": GOOD, "fail": BAD, "skip": SKIP}


def _verification(v: Verification) -> list:
    out: list = [_p("Verification", H1)]
    if not v.ran:
        out.append(_p(f"<b>{_esc(v.note)}</b>"))
        return out
    color = GOOD if v.ok else BAD
    out.append(_p(f"Checklist of <font face='Courier'>poolgen verify</font> (audit/verify.py, "
                  f"which never imports poolgen), with the public key "
                  f"<b>{_esc(v.key_fingerprint or '?')}</b>."))
    out.append(_p(f"<font color='{color.hexval()}'><b>{_esc(v.note)}</b></font>"))
    rows: list[list] = [["step", "check", "result", "what was checked / why not"]]
    for s in v.steps:
        hexcol = STATUS_COLOR.get(s.status, INK).hexval()
        lines = "<br/>".join(_esc(x) for x in s.lines) or "-"
        rows.append([str(s.number), _p(_esc(s.title), CELL),
                     _p(f"<font color='{hexcol}'><b>{s.status.upper()}</b></font>", CELL),
                     _p(lines, CELL)])
    t = _grid(rows, [0.45 * inch, 1.1 * inch, 0.6 * inch, 4.65 * inch], right_from=99)
    out.append(t)
    return out


def _cross_check(spec: Spec, check: GameCheck, run: RunFolder) -> list:
    out: list = [Spacer(1, 12), _p("Published-figure cross-check", H1)]
    wanted = run.manifest.get("spec", {}).get("sha256")
    same = spec.sha256 == wanted
    out.append(_p(f"Spec <b>{_esc(spec.path.name)}</b>, SHA-256 {spec.sha256}: "
                  + ("<font color='#2B8A3E'><b>the spec the run was made from</b></font>"
                     if same else "<font color='#C92A2A'><b>NOT the spec the run was made from"
                                  f"</b></font> (the manifest names {_esc(wanted)})")))
    if check.problems:
        out.append(_p(f"<font color='#C92A2A'><b>{len(check.problems)} published figure(s) "
                      f"disagree:</b></font>"))
        out += [_p(f"- {_esc(p)}", SMALL) for p in check.problems]
    else:
        out.append(_p(f"<font color='#2B8A3E'><b>Every published figure of "
                      f"{_esc(spec.regulation)} reconciles</b></font> with the tiers of the spec "
                      f"({len(spec.tiers)} tiers)."))
    rows = [["pool", "price", "tickets", "winners", "odds 1 in", "prize cost", "payout"]]
    for f in check.pools + ([check.order] if check.order else []):
        rows.append([f.id, fmt_cents(f.price_cents), f"{f.tickets:,}", f"{f.winners:,}",
                     _odds(f.tickets, f.winners), fmt_cents(f.prize_cost_cents),
                     _pct(f.prize_cost_cents, f.sales_cents)])
    out.append(Spacer(1, 4))
    out.append(_grid(rows, [1.0 * inch, 0.7 * inch, 1.0 * inch, 0.9 * inch, 0.8 * inch,
                            1.3 * inch, 0.8 * inch]))
    for note in check.notes:
        out.append(_p(f"note: {_esc(note)}", SMALL))
    return out


@dataclass(frozen=True)
class _PoolData:
    entry: dict
    positions: dict[str, np.ndarray]  # tier id -> positions, ascending
    group_x: np.ndarray  # book number or block start
    winners: np.ndarray
    value_cents: np.ndarray
    group_name: str


def _pool_data(run: RunFolder, entry: dict) -> _PoolData:
    printed = run.kind == "printed"
    cols = ["position", "tier", "prize_cents"] + (["book"] if printed else [])
    run.require(entry["id"], cols)
    df = run.read(entry["id"], cols)
    nulls = [c for c in cols if df[c].null_count()]
    if nulls:
        raise RunError(f"{run.name}: pool {entry['id']}: null values in column(s) {', '.join(nulls)}")
    key = pl.col("book") if printed else (pl.col("position") // BLOCK) * BLOCK
    try:
        positions = {t: np.sort(np.asarray(p, dtype=np.int64)) for t, p in
                     df.group_by("tier").agg(pl.col("position")).iter_rows()}
        per = (df.group_by(key.alias("g"))
               .agg((pl.col("prize_cents") > 0).sum().alias("w"),
                    pl.col("prize_cents").sum().alias("v"))
               .sort("g"))
    except (pl.exceptions.PolarsError, ValueError, TypeError) as exc:
        raise RunError(f"{run.name}: cannot read pool {entry['id']}: {exc}") from None
    return _PoolData(entry, positions, per["g"].to_numpy(), per["w"].to_numpy(),
                     per["v"].to_numpy(), "book" if printed else f"block of {BLOCK:,} shares")


def _prize_table(run: RunFolder, p: dict, d: _PoolData | None, unreadable: str) -> list:
    tickets, price = p["tickets"], p["price_cents"]
    title = f"Pool {p['id']}: prize structure"
    out: list = [_p(_esc(title), H1)]
    desc = [f"{tickets:,} {'tickets' if run.kind == 'printed' else 'shares'} at {fmt_cents(price)}"]
    if p.get("books") is not None:
        desc.append(f"books {p['first_book']:,} to {p['first_book'] + p['books'] - 1:,}")
    if p.get("denomination_cents") is not None:
        desc.append(f"denomination {fmt_cents(p['denomination_cents'])} x "
                    f"{p.get('play_areas', 1)} play area(s)")
    f = p.get("file", {})
    desc.append(f"file {f.get('name', '?')} ({f.get('bytes', 0):,} bytes, SHA-256 "
                f"{f.get('sha256', '?')})")
    if p.get("merkle"):
        desc.append(f"Merkle root {p['merkle'].get('root')}")
    out.append(_p(_esc("; ".join(desc)) + ".", SMALL))
    out.append(Spacer(1, 4))
    rows: list[list] = [["tier", "prize", "count", "odds 1 in", "prize cost", "share of cost"]]
    cost = p["prize_cost_cents"]
    for t in p["tiers"]:
        tier_cost = t["count"] * t["prize_cents"]
        rows.append([t["id"], fmt_cents(t["prize_cents"]), f"{t['count']:,}",
                     _odds(tickets, t["count"]), fmt_cents(tier_cost),
                     _pct(tier_cost, cost) if t["prize_cents"] else "-"])
    rows.append(["winners", "", f"{p['winners']:,}", _odds(tickets, p["winners"]),
                 fmt_cents(cost), ""])
    rows.append(["all tickets", "", f"{tickets:,}", "", f"sales {fmt_cents(tickets * price)}",
                 f"payout {_pct(cost, tickets * price)}"])
    out.append(_grid(rows, [1.1 * inch, 1.05 * inch, 0.95 * inch, 1.05 * inch, 1.45 * inch,
                            1.1 * inch], total_rows=2))
    out.append(Spacer(1, 6))
    if d is None:
        out.append(_p(f"<font color='#C92A2A'><b>The pool file cannot be read</b></font> "
                      f"({_esc(unreadable)}): nothing was recounted and there are no charts.",
                      SMALL))
        out.append(PageBreak())
        return out
    recount = {t: len(v) for t, v in d.positions.items()}
    diffs = [f"{t['id']}: file {recount.get(t['id'], 0):,}, manifest {t['count']:,}"
             for t in p["tiers"] if recount.get(t["id"], 0) != t["count"]]
    extra = sorted(set(recount) - {t["id"] for t in p["tiers"]})
    diffs += [f"{t}: {recount[t]:,} in the file, not in the manifest" for t in extra]
    if diffs:
        out.append(_p("<font color='#C92A2A'><b>Recounted from the pool file: the counts "
                      "DIFFER</b></font> - " + _esc("; ".join(diffs)), SMALL))
    else:
        out.append(_p(f"Recounted from {_esc(f.get('name', 'the pool file'))}: every tier count "
                      f"agrees with the manifest.", SMALL))
    out.append(PageBreak())
    return out


def _axis_fmt(v: float) -> str:
    return f"{int(round(v)):,}"


def _money_axis_fmt(v: float) -> str:
    return f"${v:,.0f}" if abs(v) >= 10 or v == 0 else f"${v:,.2f}"


def _series_chart(d: _PoolData, values: np.ndarray, title: str, money: bool,
                  printed: bool) -> Drawing:
    w, h = 6.8 * inch, 2.35 * inch
    dr = Drawing(w, h)
    dr.add(String(0, h - 12, title, fontName="Helvetica-Bold", fontSize=10, fillColor=INK))
    mean = float(values.mean()) if len(values) else 0.0
    top = float(values.max()) if len(values) else 1.0
    # One huge prize would flatten every other bar: such outliers are cut at the scale's top
    # and named instead.
    off_scale = ""
    usual = float(np.quantile(values, 0.995)) if len(values) else 0.0
    if usual > 0 and top > 4 * usual:
        over = np.flatnonzero(values > 4 * usual)
        cap = float(values[values <= 4 * usual].max()) * 1.1
        named = ", ".join(
            f"{int(d.group_x[i]):,} ({fmt_cents(int(values[i])) if money else int(values[i])})"
            for i in over[:6]) + (" ..." if len(over) > 6 else "")
        off_scale = f"cut at the top of the scale: {d.group_name} {named}"
        values = np.minimum(values, cap)
        top = cap
    # Chart coordinates only: money is plotted in dollars as floats, never computed with.
    scale = 100.0 if money else 1.0
    if printed:
        chart = LinePlot()
        xs = d.group_x.astype(float)
        chart.data = [list(zip(xs, values / scale, strict=True)),
                      [(float(xs.min()), mean / scale), (float(xs.max()), mean / scale)]]
        chart.lines[0].strokeColor = BLUE
        chart.lines[0].strokeWidth = 0.6
        chart.lines[1].strokeColor = ORANGE
        chart.lines[1].strokeWidth = 1.2
        chart.xValueAxis.valueMin = float(xs.min())
        chart.xValueAxis.valueMax = float(xs.max())
        chart.xValueAxis.labelTextFormat = _axis_fmt
        chart.yValueAxis.valueMin = 0
        chart.yValueAxis.valueMax = top / scale * 1.08 or 1
    else:
        chart = VerticalBarChart()
        chart.data = [list(values / scale)]
        chart.bars[0].fillColor = BLUE
        chart.bars[0].strokeColor = None
        chart.barSpacing = 0.5
        chart.groupSpacing = 1
        chart.categoryAxis.categoryNames = [
            f"{int(x):,}" if i % 10 == 0 else "" for i, x in enumerate(d.group_x)]
        chart.categoryAxis.labels.fontSize = 6
        chart.categoryAxis.labels.angle = 0
        chart.categoryAxis.tickDown = 2
        chart.valueAxis.valueMin = 0
        chart.valueAxis.valueMax = top / scale * 1.08 or 1
    chart.x, chart.y = 52, 28
    chart.width, chart.height = w - 64, h - 60
    axis = chart.yValueAxis if printed else chart.valueAxis
    axis.labelTextFormat = _money_axis_fmt if money else _axis_fmt
    axis.labels.fontSize = 7
    axis.visibleGrid = 1
    axis.gridStrokeColor = HEAD
    if printed:
        chart.xValueAxis.labels.fontSize = 7
    dr.add(chart)
    mean_text = fmt_cents(int(round(mean))) if money else f"{mean:,.2f}"
    dr.add(String(w - 4, h - 12, f"mean {mean_text} per {d.group_name}"
                  + (" (orange line)" if printed else ""), fontName="Helvetica", fontSize=7.5,
                  fillColor=GREY, textAnchor="end"))
    dr.add(String(w / 2, 4, f"{'book number' if printed else 'first position of the block'}",
                  fontName="Helvetica", fontSize=7.5, fillColor=GREY, textAnchor="middle"))
    if off_scale:
        dr.add(String(w - 4, h - 24, off_scale, fontName="Helvetica", fontSize=7.5, fillColor=BAD,
                      textAnchor="end"))
    return dr


def _top_groups(entry: dict) -> list[tuple[int, list[str]]]:
    """The highest prize amounts of a pool, each with its tiers: at most TOP_GROUPS, and after the
    first only amounts with at most RUG_MAX tickets (beyond that a strip is solid ink)."""
    by_prize: dict[int, list[str]] = {}
    counts: dict[int, int] = {}
    for t in entry["tiers"]:
        if t["prize_cents"] and t["count"]:
            by_prize.setdefault(t["prize_cents"], []).append(t["id"])
            counts[t["prize_cents"]] = counts.get(t["prize_cents"], 0) + t["count"]
    out = []
    for prize, tiers in sorted(by_prize.items(), reverse=True):
        if out and (len(out) == TOP_GROUPS or counts[prize] > RUG_MAX):
            break
        out.append((prize, tiers))
    return out


def _top_chart(d: _PoolData) -> tuple[Drawing, list[str]]:
    """A rug plot: one row per top prize amount, one tick per ticket at its position."""
    groups = _top_groups(d.entry)
    tickets = d.entry["tickets"]
    row_h = 26
    w = 6.8 * inch
    x0, x1 = 104, w - 10
    h = 52 + row_h * len(groups)
    dr = Drawing(w, h)
    dr.add(String(0, h - 12, "Positions of the top prizes in the pool (one tick per ticket)",
                  fontName="Helvetica-Bold", fontSize=10, fillColor=INK))
    base = 26
    palette = [BAD, ORANGE, BLUE]
    notes = []
    for k, (prize, tier_ids) in enumerate(groups):
        pos = np.sort(np.concatenate([d.positions.get(t, np.zeros(0, np.int64)) for t in tier_ids]))
        y = base + row_h * (len(groups) - 1 - k)
        dr.add(Rect(x0, y + 3, x1 - x0, row_h - 6, fillColor=colors.HexColor("#F8F9FA"),
                    strokeColor=None))
        for p in pos:
            x = x0 + (x1 - x0) * float(p) / max(1, tickets - 1)
            dr.add(Line(x, y + 4, x, y + row_h - 4, strokeColor=palette[k % 3],
                        strokeWidth=1.2 if len(pos) <= 50 else 0.5))
        dr.add(String(x0 - 6, y + row_h / 2 - 3, f"{fmt_cents(prize)} ({len(pos):,})",
                      fontName="Helvetica", fontSize=7.5, fillColor=INK, textAnchor="end"))
        if len(pos) <= LISTED:
            notes.append(f"{fmt_cents(prize)} (tier {', '.join(tier_ids)}): position(s) "
                         + ", ".join(f"{int(p):,}" for p in pos))
        else:
            gaps = np.diff(pos)
            notes.append(f"{fmt_cents(prize)} (tier {', '.join(tier_ids)}): {len(pos):,} tickets; "
                         f"gaps between neighbours from {int(gaps.min()):,} to "
                         f"{int(gaps.max()):,} positions (mean {tickets // len(pos):,})")
    dr.add(Line(x0, base, x1, base, strokeColor=INK, strokeWidth=0.8))
    for i in range(11):
        x = x0 + (x1 - x0) * i / 10
        dr.add(Line(x, base, x, base - 3, strokeColor=INK, strokeWidth=0.8))
        dr.add(String(x, base - 11, f"{tickets * i // 10:,}", fontName="Helvetica", fontSize=6.5,
                      fillColor=INK, textAnchor="middle"))
    dr.add(String((x0 + x1) / 2, 2, "position in the pool (pool order)", fontName="Helvetica",
                  fontSize=7.5, fillColor=GREY, textAnchor="middle"))
    return dr, notes


def _charts(run: RunFolder, d: _PoolData) -> list:
    printed = run.kind == "printed"
    per = "book" if printed else f"block of {BLOCK:,} shares"
    out: list = [_p(f"Pool {_esc(d.entry['id'])}: how the prizes are spread", H1)]
    out.append(_p(f"Winners and prize value per {per} in pool order; the top prizes' positions. "
                  "A well-shuffled pool shows no trend and no cluster.", SMALL))
    out.append(Spacer(1, 4))
    out.append(_series_chart(d, d.winners, f"Winners per {per}", False, printed))
    out.append(Spacer(1, 4))
    out.append(_series_chart(d, d.value_cents, f"Prize value per {per}", True,
                             printed))
    out.append(Spacer(1, 6))
    chart, notes = _top_chart(d)
    out.append(KeepTogether([chart] + [_p(_esc(n), SMALL) for n in notes]))
    out.append(PageBreak())
    return out


def _footer(run: RunFolder):
    label = f"Audit report of run {run.manifest.get('run_id', run.path.name)}"
    digest = hashlib.sha256(run.manifest_bytes).hexdigest()[:16]

    def draw(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7.5)
        canvas.setFillColor(GREY)
        canvas.drawString(doc.leftMargin, 0.45 * inch,
                          f"{label}  (manifest SHA-256 {digest}...)")
        canvas.drawRightString(letter[0] - doc.rightMargin, 0.45 * inch, f"page {doc.page}")
        canvas.restoreState()

    return draw


def build_report(run: RunFolder, verification: Verification, spec: Spec | None = None,
                 check: GameCheck | None = None) -> bytes:
    """The audit report PDF of a run."""
    from poolgen.pdf.stats_page import statistics_page  # it uses this module's styles

    story: list = _title_page(run)
    story += _verification(verification)
    if spec is not None and check is not None:
        story += _cross_check(spec, check, run)
    story.append(PageBreak())
    for entry in run.pools:
        try:
            d, unreadable = _pool_data(run, entry), ""
        except RunError as exc:  # the report still says what the manifest claims
            d, unreadable = None, str(exc)
        story += _prize_table(run, entry, d, unreadable)
        if d is not None:
            story += _charts(run, d)
            story += statistics_page(run, entry)
    if isinstance(story[-1], PageBreak):
        story.pop()
    buf = io.BytesIO()
    g = run.manifest["game"]
    doc = SimpleDocTemplate(
        buf, pagesize=letter, invariant=1, leftMargin=0.75 * inch, rightMargin=0.75 * inch,
        topMargin=0.7 * inch, bottomMargin=0.75 * inch,
        title=f"Audit report: {g['name']}, run {run.manifest.get('run_id', run.path.name)}",
        author="poolgen", subject="audit report", creator="poolgen report")
    footer = _footer(run)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()
