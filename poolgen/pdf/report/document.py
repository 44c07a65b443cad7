"""The audit report: what a run claims, whether it verifies, and how its prizes are spread.

Sections: a title page (game, regulation, run, creation time, signer, seed commitment, totals);
the verification checklist of `audit.verify` (run only with a public key: the report never claims
a check it did not make); with a spec, the published-figure cross-check of `poolgen check`
(poolgen/check/); then
for every pool its prize structure table (from the manifest, with the tier counts recounted from
the pool file: poolgen/pdf/report/pools.py) and a page of charts: winners and prize value per book
(printed games) or per block of 10,000 shares (eInstants), and the positions of the top prizes,
where clustering would show (poolgen/pdf/report/charts.py); and a page of the pool's statistics,
the figures of verify's step 8 (poolgen/pdf/report/statistics.py). This module assembles them and draws
the run's own pages; the styles every page uses are in poolgen/pdf/report/text.py.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.pagesizes import letter
from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    PageBreak,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from audit.errors import UnusableInput
from audit.verify import Report, VerifyRequest, verify_run
from poolgen.check.figures import GameCheck, PoolFigures
from poolgen.check.printed import split_note
from poolgen.errors import RunError
from poolgen.game.model import Game, PoolTier, PriceMultiple, Printed
from poolgen.money import fmt_cents
from poolgen.pdf.draw import numbered_pages
from poolgen.pdf.report.charts import charts
from poolgen.pdf.report.pools import BLOCK, pool_data, prize_table
from poolgen.pdf.report.statistics import checklist_lines, statistics_page
from poolgen.pdf.report.text import (
    BAD,
    CELL,
    GOOD,
    GREY,
    H1,
    INK,
    SKIP,
    SMALL,
    SUBTITLE,
    TITLE,
    Cell,
    escape,
    grid,
    odds_text,
    para,
    percent,
)
from poolgen.run.folder import RunFolder

__all__ = ["BLOCK", "Verification", "build_report", "run_verification"]


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


def run_verification(run: RunFolder, public_key: Path | None, spec: Path | None, internal: bool = False,
                     **more: Any) -> Verification:
    """Run audit.verify's checklist on the run, if there is a key to check the signature with, as the
    edition (`internal` or public) shows it; `more`: the rest of what `verify` takes (seed_file,
    ceremony, regenerate, validation keys, ...)."""
    if public_key is None:
        return Verification(False, "Verification was not run: no --public-key was given. Give the "
                                   "run's public key to include the checklist of `poolgen verify`.")
    workers = max(1, min(len(run.pools), os.cpu_count() or 1))
    try:
        result = verify_run(VerifyRequest(run=run.path, public_key=public_key, spec=spec, workers=workers,
                                          **more))
    except UnusableInput as exc:
        raise RunError(str(exc)) from None
    return verification_of(result, internal)


def verification_of(result: Report, internal: bool = False) -> Verification:
    """audit.verify's report of a run as the report's checklist and verdict, in the public edition
    unless `internal` (statistics.checklist_lines)."""
    steps = tuple(Step(s.step, s.title, s.status, checklist_lines(s, internal)) for s in result.steps)
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
# The run's pages: title, verification checklist, published-figure cross-check


def _verdict(v: Verification) -> str:
    if not v.ran:
        return "<b>NOT VERIFIED</b>: verification was not run (no --public-key)"
    color = (GOOD if v.ok else BAD).hexval()
    word = "VERIFIED" if v.ok else "NOT VERIFIED"
    return f"<font color='{color}'><b>{word}</b></font>: {escape(v.note)}"


PUBLIC = ("anyone: distributions only, no ticket id, book, serial or position of a prize "
          "(the internal edition has them)")
INTERNAL = ("only those the operator trusts with outcomes (security, the regulator's auditor), until "
            "claims close: it says where prizes are; the file is mode 0600")


def _title_page(run: RunFolder, v: Verification, internal: bool) -> list[Flowable]:
    m = run.manifest
    g = m["game"]
    number = f"game {g['number']}, " if g.get("number") else ""
    sig = m.get("signature") or {}
    if sig.get("signed") and sig.get("key_fingerprint"):
        signer = escape(sig["key_fingerprint"])
    elif sig.get("signed") is False:
        signer = "none: the run is unsigned (the manifest says \"signed\": false)"
    else:
        signer = "not stated in the manifest"
    commit = m.get("seed_commitment") or {}
    t = m.get("totals") or {}
    rows = [
        ("Verdict", _verdict(v)),
        ("Edition", ("INTERNAL: tells where prizes are" if internal else "public")
                    + f"; who may receive it: {INTERNAL if internal else PUBLIC}"),
        ("Game", f"{escape(g['name'])} ({number}{escape(g['kind'])})"),
        ("Regulation", escape(g["regulation"])),
        ("Run", escape(m.get("run_id", run.path.name))),
        ("Created", escape(m.get("created", "not stated"))),
        ("Tool", escape(f"{m.get('tool', {}).get('name', '?')} "
                      f"{m.get('tool', {}).get('version', '')}")),
        ("Spec", escape(f"{m.get('spec', {}).get('file', '?')}, SHA-256 "
                      f"{m.get('spec', {}).get('sha256', '?')}")),
        ("Signer key fingerprint", signer),
        ("Seed commitment", escape(f"{commit.get('value', 'not stated')}")),
        ("Commitment rule", escape(commit.get("algorithm", "not stated"))),
        ("Manifest SHA-256", hashlib.sha256(run.manifest_bytes).hexdigest()),
        ("DRBG", escape(m.get("drbg", {}).get("algorithm", "not stated"))),
    ]
    if t:
        rows += [
            ("Pools", f"{t.get('pools', len(run.pools))}: "
                      f"{escape(', '.join(p['id'] for p in run.pools))}"),
            ("Tickets", f"{t['tickets']:,}, of which {t['winners']:,} win "
                        f"(overall odds 1 in {odds_text(t['tickets'], t['winners'])})"),
            ("Prize cost", f"{fmt_cents(t['prize_cost_cents'], run.currency)} of sales "
                           f"{fmt_cents(t['sales_cents'], run.currency)}: payout "
                           f"{percent(t['prize_cost_cents'], t['sales_cents'])}"),
        ]
    table = Table([[para(f"<b>{k}</b>", SMALL), para(v, SMALL)] for k, v in rows],
                  colWidths=[1.55 * inch, 5.2 * inch])
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("TOPPADDING", (0, 0), (-1, -1), 2),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]))
    streams = m.get("drbg", {}).get("streams", [])
    return [
        Spacer(1, 1.2 * inch),
        para("Audit report", TITLE),
        para(f"{escape(g['name'])}, {escape(g['regulation'])}", SUBTITLE),
        para(f"run {escape(m.get('run_id', run.path.name))}", SUBTITLE),
        Spacer(1, 0.5 * inch),
        table,
        Spacer(1, 10),
        para("<b>Derived DRBG streams</b> (labels; the seed itself is never recorded): "
           + escape(", ".join(streams)), SMALL),
        PageBreak(),
    ]


STATUS_COLOR = {"pass": GOOD, "fail": BAD, "skip": SKIP}


CHECK_LINES = 12  # a step's lines a row of the checklist: a row fits a page though each line wraps thrice


def _verification(v: Verification) -> list[Flowable]:
    out: list[Flowable] = [para("Verification", H1)]
    if not v.ran:
        out.append(para(f"<b>{escape(v.note)}</b>"))
        return out
    color = GOOD if v.ok else BAD
    out.append(para(f"Checklist of <font face='Courier'>poolgen verify</font> (audit/verify.py, "
                  f"which never imports poolgen), with the public key "
                  f"<b>{escape(v.key_fingerprint or '?')}</b>."))
    out.append(para(f"<font color='{color.hexval()}'><b>{escape(v.note)}</b></font>"))
    rows: list[list[Cell]] = [["step", "check", "result", "what was checked / why not"]]
    for s in v.steps:
        hexcol = STATUS_COLOR.get(s.status, INK).hexval()
        # a cell never splits over pages: a step's lines go CHECK_LINES to a row, so a step 8 failing many
        # tests (its reasons) continues over rows the table can break between
        chunks = [s.lines[i:i + CHECK_LINES] for i in range(0, len(s.lines), CHECK_LINES)] or [("-",)]
        for i, chunk in enumerate(chunks):
            rows.append([str(s.number) if i == 0 else "", para(escape(s.title) if i == 0 else "", CELL),
                         para(f"<font color='{hexcol}'><b>{s.status.upper()}</b></font>" if i == 0 else "",
                              CELL), para("<br/>".join(escape(x) for x in chunk), CELL)])
    t = grid(rows, [0.45 * inch, 1.1 * inch, 0.6 * inch, 4.65 * inch], right_from=99)
    out.append(t)
    return out


def _cross_check(game: Game, check: GameCheck, run: RunFolder) -> list[Flowable]:
    out: list[Flowable] = [Spacer(1, 12), para("Published-figure cross-check", H1)]
    wanted = run.manifest.get("spec", {}).get("sha256")
    same = game.sha256 == wanted
    out.append(para(f"Spec <b>{escape(game.path.name)}</b>, SHA-256 {game.sha256}: "
                  + ("<font color='#2B8A3E'><b>the spec the run was made from</b></font>"
                     if same else "<font color='#C92A2A'><b>NOT the spec the run was made from"
                                  f"</b></font> (the manifest names {escape(wanted)})")))
    if check.problems:
        out.append(para(f"<font color='#C92A2A'><b>{len(check.problems)} published figure(s) "
                      f"disagree:</b></font>"))
        out += [para(f"- {escape(p)}", SMALL) for p in check.problems]
    elif not check.stated:
        out.append(para(f"The spec states no published figure (regulation: {escape(game.regulation)}): "
                        f"nothing reconciled; the figures below are computed from its {len(game.tiers)} "
                        "tiers."))  # a designed game's regulation is "none (...)": not a name to quote
    else:
        out.append(para(f"<font color='#2B8A3E'><b>Every published figure of "
                      f"{escape(game.regulation)} reconciles</b></font> with the tiers of the spec "
                      f"({len(game.tiers)} tiers)."))
    pools, notes = _pool_rows(game, check, run)
    rows: list[list[Cell]] = [["pool", "price", "tickets", "winners", "odds 1 in", "prize cost", "payout"]]
    for f in pools + ([check.order] if check.order else []):
        rows.append([f.id, fmt_cents(f.price_cents, game.currency), f"{f.tickets:,}", f"{f.winners:,}",
                     odds_text(f.tickets, f.winners), fmt_cents(f.prize_cost_cents, game.currency),
                     percent(f.prize_cost_cents, f.sales_cents)])
    out.append(Spacer(1, 4))
    out.append(grid(rows, [1.0 * inch, 0.7 * inch, 1.0 * inch, 0.9 * inch, 0.8 * inch,
                            1.3 * inch, 0.8 * inch]))
    for note in notes:
        out.append(para(f"note: {escape(note)}", SMALL))
    return out


def _pool_rows(game: Game, check: GameCheck, run: RunFolder) -> tuple[list[PoolFigures], list[str]]:
    """The cross-check's pool rows and notes. A split order's pools (docs/randomness.md 4b) hold counts
    the run's seed drew, which no spec states (`check` shows each share rounded down): the rows of the
    pools this run holds are its signed manifest's counts instead, the note saying so."""
    sales = game.sales
    split = run.manifest.get("print", {}).get("split")
    if not isinstance(sales, Printed) or sales.split is None or not split:
        return list(check.pools), list(check.notes)
    held = {p["id"]: p for p in run.manifest["pools"]}
    drawn = [PoolFigures(p["id"], p["price_cents"], p["tickets"],
                         tuple(PoolTier(t["id"], t["prize_cents"], t["count"]) for t in p["tiers"]))
             for p in run.manifest["pools"]]
    missing = [f.id for f in check.pools if f.id not in held]
    said = (f"{game.name}: counts split evenly (printed.split = \"even\"): the pools' rows are the counts "
            "this run's seed drew (its signed manifest's; verify's step 5 holds each to its exact share "
            "rounded down or up, docs/randomness.md 4b), the order's row the spec's exact counts")
    if missing:
        said += f"; pool(s) {', '.join(missing)} of the order are not in this run"
    elif check.order is not None:
        layout = [(t.id, t.prize_cents) for t in drawn[0].tiers]
        sums = [(*k, sum(f.tiers[i].count for f in drawn)) for i, k in enumerate(layout)]
        adds = all([(t.id, t.prize_cents) for t in f.tiers] == layout for f in drawn) and \
            sums == [(t.id, t.prize_cents, t.count) for t in check.order.tiers]
        said += ", which they add up to" if adds else ", which they do NOT add up to"
    rule = split_note(game, sales)
    return drawn, [said] + [n for n in check.notes if n != rule]


def _footer(run: RunFolder) -> Callable[[Canvas, BaseDocTemplate], None]:
    label = f"Audit report of run {run.manifest.get('run_id', run.path.name)}"
    digest = hashlib.sha256(run.manifest_bytes).hexdigest()[:16]

    def draw(canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7.5)
        canvas.setFillColor(GREY)
        canvas.drawString(doc.leftMargin, 0.45 * inch,
                          f"{label}  (manifest SHA-256 {digest}...)")
        canvas.restoreState()

    return draw


def _tier_labels(game: Game | None) -> dict[str, str]:
    """Tier id -> "label (id)" as the spec names its tiers (printed: the row's text; eInstant: the
    multiple of the price)."""
    out: dict[str, str] = {}
    for t in game.tiers if game is not None else ():
        label = t.published.label or (f"{t.prize.times} x price" if isinstance(t.prize, PriceMultiple)
                                      else None)
        if label:
            out[t.id] = f"{label} ({t.id})"
    return out


def build_report(run: RunFolder, verification: Verification, game: Game | None = None,
                 check: GameCheck | None = None, internal: bool = False) -> bytes:
    """The audit report PDF of a run: the public edition (distributions only) or, `internal`, the
    edition that says where the prizes are."""
    story: list[Flowable] = _title_page(run, verification, internal)
    story += _verification(verification)
    if game is not None and check is not None:
        story += _cross_check(game, check, run)
    story.append(PageBreak())
    for entry in run.pools:
        try:
            d, unreadable = pool_data(run, entry), ""
        except RunError as exc:  # the report still says what the manifest claims
            d, unreadable = None, str(exc)
        story += prize_table(run, entry, d, unreadable, _tier_labels(game))
        if d is not None:
            story += charts(run, d, internal)
            story += statistics_page(run, entry, internal)
    if isinstance(story[-1], PageBreak):
        story.pop()
    buf = io.BytesIO()
    g = run.manifest["game"]
    doc = SimpleDocTemplate(
        buf, pagesize=letter, invariant=1, leftMargin=0.75 * inch, rightMargin=0.75 * inch,
        topMargin=0.7 * inch, bottomMargin=0.75 * inch,
        title=(f"Audit report{' (INTERNAL)' if internal else ''}: {g['name']}, "
               f"run {run.manifest.get('run_id', run.path.name)}"),
        author="poolgen", subject="audit report", creator="poolgen report")
    footer = _footer(run)
    numbered = numbered_pages(letter[0] - doc.rightMargin, 0.45 * inch, "Helvetica", 7.5, GREY)
    doc.build(story, onFirstPage=footer, onLaterPages=footer, canvasmaker=numbered)  # "page N of M"
    return buf.getvalue()
