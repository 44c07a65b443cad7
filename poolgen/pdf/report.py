"""The audit report: what a run claims, whether it verifies, and how its prizes are spread.

Sections: a title page (game, regulation, run, creation time, signer, seed commitment, totals);
the verification checklist of `audit.verify` (run only with a public key: the report never claims
a check it did not make); with a spec, the published-figure cross-check of `poolgen.check`; then
for every pool its prize structure table (from the manifest, with the tier counts recounted from
the pool file: poolgen/pdf/report_pools.py) and a page of charts: winners and prize value per book
(printed games) or per block of 10,000 shares (eInstants), and the positions of the top prizes,
where clustering would show (poolgen/pdf/report_charts.py); and a page of the pool's statistics,
the figures of verify's step 8 (poolgen/pdf/stats_page.py). This module assembles them and draws
the run's own pages; the styles every page uses are in poolgen/pdf/report_text.py.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.lib.units import inch
from reportlab.platypus import PageBreak, SimpleDocTemplate, Spacer, Table, TableStyle

from poolgen.check import GameCheck
from poolgen.errors import RunError
from poolgen.money import fmt_cents
from poolgen.pdf.report_charts import _charts
from poolgen.pdf.report_pools import BLOCK, _pool_data, _prize_table
from poolgen.pdf.report_text import (
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
    _esc,
    _grid,
    _odds,
    _p,
    _pct,
)
from poolgen.pdf.run import RunFolder
from poolgen.spec import Spec

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


def run_verification(run: RunFolder, public_key: Path | None, spec: Path | None) -> Verification:
    """Run audit.verify's checklist on the run, if there is a key to check the signature with."""
    if public_key is None:
        return Verification(False, "Verification was not run: no --public-key was given. Give the "
                                   "run's public key to include the checklist of `poolgen verify`.")
    try:
        from audit.errors import UnusableInput
        from audit.verify import VerifyRequest, verify_run
    except ImportError:
        return Verification(False, "Verification was not run: this installation has no verifier "
                                   "(audit.verify).")
    workers = max(1, min(len(run.pools), os.cpu_count() or 1))
    try:
        result = verify_run(VerifyRequest(run=run.path, public_key=public_key, spec=spec, workers=workers))
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
# The run's pages: title, verification checklist, published-figure cross-check


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
    from poolgen.pdf.stats_page import statistics_page  # imports audit.stats: only when a report is built

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
