"""A pool's chart page of the audit report.

The public edition (the default) shows distributions only: how many books (or blocks of shares) hold
how many winners and how much prize value, and how many tickets each top prize has; nothing that says
where in the pool a prize is. The internal edition (`poolgen report --internal`, an outcome file)
adds winners and prize value per book slot in print order (or per block of shares in serial order)
and the positions of the top prizes, where a trend or a cluster would show."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Spacer

from poolgen.money import Currency, fmt_cents
from poolgen.pdf.report.pools import BLOCK, PoolData
from poolgen.pdf.report.text import BAD, BLUE, GREY, H1, HEAD, INK, ORANGE, SMALL, escape, para
from poolgen.pdf.shapes import rect
from poolgen.run.folder import RunFolder

TOP_GROUPS = 3  # prize amounts shown in the top-prize position chart
LISTED = 12  # positions written out when a top prize has at most this many tickets
RUG_MAX = 1_000  # most ticks in one row of the top-prize chart (the first row excepted)


def _axis_fmt(v: float) -> str:
    return f"{int(round(v)):,}"


def _money_axis(cur: Currency) -> Callable[[float], str]:
    """An axis label of an amount in `cur`, whole above 10 ('$1,200', '$2.50')."""
    return lambda v: f"{cur.sign}{v:,.0f}" if abs(v) >= 10 or v == 0 else f"{cur.sign}{v:,.2f}"


def _series_chart(d: PoolData, values: np.ndarray, title: str, money: bool,
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
            f"{int(d.group_x[i]):,} ({fmt_cents(int(values[i]), d.currency) if money else int(values[i])})"
            for i in over[:6]) + (" ..." if len(over) > 6 else "")
        off_scale = f"cut at the top of the scale: {d.group_name} {named}"
        values = np.minimum(values, cap)
        top = cap
    # Chart coordinates only: money is plotted in dollars as floats, never computed with.
    scale = 100.0 if money else 1.0
    chart: LinePlot | VerticalBarChart
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
        chart.xValueAxis.labels.fontSize = 7
        chart.yValueAxis.valueMin = 0
        chart.yValueAxis.valueMax = top / scale * 1.08 or 1
        axis = chart.yValueAxis
    else:
        chart = VerticalBarChart()
        chart.data = [list(values / scale)]
        chart.bars[0].fillColor = BLUE
        chart.bars[0].strokeColor = None
        chart.barSpacing = 0.5  # type: ignore[assignment]  # stubs: int; reportlab takes any number
        chart.groupSpacing = 1
        chart.categoryAxis.categoryNames = [
            f"{int(x):,}" if i % 10 == 0 else "" for i, x in enumerate(d.group_x)]
        chart.categoryAxis.labels.fontSize = 6
        chart.categoryAxis.labels.angle = 0
        chart.categoryAxis.tickDown = 2
        chart.valueAxis.valueMin = 0
        chart.valueAxis.valueMax = top / scale * 1.08 or 1
        axis = chart.valueAxis
    chart.x, chart.y = 52, 28
    # types-reportlab types PlotArea.width and height as int; reportlab takes any number (isNumber)
    chart.width, chart.height = w - 64, h - 60  # type: ignore[assignment]
    axis.labelTextFormat = _money_axis(d.currency) if money else _axis_fmt
    axis.labels.fontSize = 7
    axis.visibleGrid = 1
    axis.gridStrokeColor = HEAD
    dr.add(chart)
    mean_text = fmt_cents(int(round(mean)), d.currency) if money else f"{mean:,.2f}"
    dr.add(String(w - 4, h - 12, f"mean {mean_text} per {d.group_name}"
                  + (" (orange line)" if printed else ""), fontName="Helvetica", fontSize=7.5,
                  fillColor=GREY, textAnchor="end"))
    dr.add(String(w / 2, 4, f"{'book slot (print order)' if printed else 'first position of the block'}",
                  fontName="Helvetica", fontSize=7.5, fillColor=GREY, textAnchor="middle"))
    if off_scale:
        dr.add(String(w - 4, h - 24, off_scale, fontName="Helvetica", fontSize=7.5, fillColor=BAD,
                      textAnchor="end"))
    return dr


def _top_groups(entry: Mapping[str, Any]) -> list[tuple[int, list[str]]]:
    """The highest prize amounts of a pool, each with its tiers: at most TOP_GROUPS, and after the
    first only amounts with at most RUG_MAX tickets (beyond that a strip is solid ink)."""
    by_prize: dict[int, list[str]] = {}
    counts: dict[int, int] = {}
    for t in entry["tiers"]:
        if t["prize_cents"] and t["count"]:
            by_prize.setdefault(t["prize_cents"], []).append(t["id"])
            counts[t["prize_cents"]] = counts.get(t["prize_cents"], 0) + t["count"]
    out: list[tuple[int, list[str]]] = []
    for prize, tiers in sorted(by_prize.items(), reverse=True):
        if out and (len(out) == TOP_GROUPS or counts[prize] > RUG_MAX):
            break
        out.append((prize, tiers))
    return out


def _top_chart(d: PoolData) -> tuple[Drawing, list[str]]:
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
    notes: list[str] = []
    for k, (prize, tier_ids) in enumerate(groups):
        pos = np.sort(np.concatenate([d.positions.get(t, np.zeros(0, np.int64)) for t in tier_ids]))
        y = base + row_h * (len(groups) - 1 - k)
        dr.add(rect(x0, y + 3, x1 - x0, row_h - 6, fillColor=colors.HexColor("#F8F9FA"),
                    strokeColor=None))
        for p in pos:
            x = x0 + (x1 - x0) * float(p) / max(1, tickets - 1)
            dr.add(Line(x, y + 4, x, y + row_h - 4, strokeColor=palette[k % 3],
                        strokeWidth=1.2 if len(pos) <= 50 else 0.5))
        dr.add(String(x0 - 6, y + row_h / 2 - 3, f"{fmt_cents(prize, d.currency)} ({len(pos):,})",
                      fontName="Helvetica", fontSize=7.5, fillColor=INK, textAnchor="end"))
        if len(pos) <= LISTED:
            notes.append(f"{fmt_cents(prize, d.currency)} (tier {', '.join(tier_ids)}): position(s) "
                         + ", ".join(f"{int(p):,}" for p in pos))
        else:
            gaps = np.diff(pos)
            notes.append(f"{fmt_cents(prize, d.currency)} (tier {', '.join(tier_ids)}): {len(pos):,} "
                         "tickets; "
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


def _histogram(values: np.ndarray, title: str, money: bool, unit: str, cur: Currency) -> Drawing:
    """How many groups (books or blocks) hold each amount: a distribution, no position."""
    w, h = 6.8 * inch, 2.1 * inch
    dr = Drawing(w, h)
    dr.add(String(0, h - 12, title, fontName="Helvetica-Bold", fontSize=10, fillColor=INK))
    values = values.astype(np.int64)
    top = int(values.max()) if len(values) else 0
    if not money and top <= 60:
        edges = np.arange(top + 2)
        names = [str(v) if top <= 20 or v % 5 == 0 else "" for v in edges[:-1]]
    else:  # 30 bars up to the 99.5% quantile (whole dollars for money), the rest in one last bar
        usual = int(np.quantile(values, 0.995)) if len(values) else 0
        unit_step = 100 if money else 1
        step = max(1, -(-usual // 30 // unit_step)) * unit_step
        edges = np.arange(0, usual + step + 1, step)
        fmt: Callable[[int], str] = (lambda v: fmt_cents(v, cur)) if money else (lambda v: f"{v:,}")
        names = [fmt(int(v)) if i % 6 == 0 else "" for i, v in enumerate(edges[:-1])]
        if top >= edges[-1]:
            edges = np.append(edges, top + 1)
            names.append(f"{fmt(int(edges[-2]))}+")
    counts, _ = np.histogram(values, bins=edges)
    chart = VerticalBarChart()
    chart.data = [[int(c) for c in counts]]
    chart.bars[0].fillColor = BLUE
    chart.bars[0].strokeColor = None
    chart.categoryAxis.categoryNames = names
    chart.categoryAxis.labels.fontSize = 6
    chart.valueAxis.valueMin = 0
    chart.valueAxis.labelTextFormat = _axis_fmt
    chart.valueAxis.labels.fontSize = 7
    chart.x, chart.y = 52, 28
    chart.width, chart.height = w - 64, h - 50  # type: ignore[assignment]  # stubs: int
    dr.add(chart)
    dr.add(String(w / 2, 4, f"{'prize value' if money else 'winners'} per {unit} "
                  f"(bars: how many {unit}s)", fontName="Helvetica", fontSize=7.5, fillColor=GREY,
                  textAnchor="middle"))
    return dr


def charts(run: RunFolder, d: PoolData, internal: bool) -> list[Flowable]:
    printed = run.kind == "printed"
    unit = "book" if printed else "block"
    per = "book" if printed else f"block of {BLOCK:,} shares"
    out: list[Flowable] = [para(f"Pool {escape(d.entry['id'])}: how the prizes are spread", H1)]
    if not internal:
        out.append(para(f"Distributions only (this edition says nothing of where a prize is): how many "
                        f"{per}s hold how many winners and how much prize value. Whether the prizes are "
                        f"spread as a uniform shuffle spreads them is tested on the statistics page "
                        f"(verify step 8).", SMALL))
        out.append(Spacer(1, 4))
        out.append(_histogram(d.winners, f"Winners per {per}", False, unit, d.currency))
        out.append(Spacer(1, 4))
        out.append(_histogram(d.value_cents, f"Prize value per {per}", True, unit, d.currency))
        out.append(Spacer(1, 6))
        tops = [f"{fmt_cents(prize, d.currency)}: "
                f"{sum(len(d.positions.get(t, ())) for t in tiers):,} ticket(s)"
                for prize, tiers in _top_groups(d.entry)]
        out.append(para("Top prizes: " + escape("; ".join(tops)) + ". Where they are is in the internal "
                        "edition only (poolgen report --internal).", SMALL))
        out.append(PageBreak())
        return out
    out.append(para(f"INTERNAL EDITION: tells where prizes are. Winners and prize value per {per} in "
                    f"{'print' if printed else 'serial'} order; the top prizes' positions. A "
                    "well-shuffled pool shows no trend and no cluster.", SMALL))
    out.append(Spacer(1, 4))
    out.append(_series_chart(d, d.winners, f"Winners per {per}", False, printed))
    out.append(Spacer(1, 4))
    out.append(_series_chart(d, d.value_cents, f"Prize value per {per}", True,
                             printed))
    out.append(Spacer(1, 6))
    chart, notes = _top_chart(d)
    out.append(KeepTogether([chart] + [para(escape(n), SMALL) for n in notes]))
    out.append(PageBreak())
    return out
