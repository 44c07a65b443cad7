"""The audit report's statistics page of a pool: step 8 of `verify`, test by test.

The figures are audit.stats.step's own (the same function `verify` runs), computed from the pool file
whether or not the report runs the verification: every test with its method, statistic, p-value,
the Holm threshold it was held to and the verdict (docs/statistics.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from reportlab.lib.units import inch
from reportlab.platypus import Flowable, PageBreak, Spacer

from audit.checklist import StepResult
from audit.errors import UnusableInput
from audit.read.specs.packs import for_pool, manifest_packs
from audit.stats.positions import BLOCK
from audit.stats.step import ALPHA, columns_needed, fmt_p, pool_alpha, pool_statistics
from poolgen.errors import RunError
from poolgen.pdf.report import text as r
from poolgen.run.folder import RunFolder

__all__ = ["checklist_lines", "placeless", "statistics_page"]

SUMMARY = re.compile(r"^(pool \S+|run): \d+ tests")  # each pool's summary, and the run-level tests'
SMALLEST = re.compile(r" \(smallest p = [^)]*\)")
THRESHOLD = re.compile(r" <= Holm threshold [^,]*,")  # a threshold ranks the test among withheld ones
POSITION = re.compile(r"\bposition\b")
# the printed numbers' tests (docs/statistics.md 1c): their figures name a top prize's book or the last
# digit of its book or ticket number, so they are withheld from the public edition whatever their words
# (and the run's tests of the top prizes' ticket numbers, "smallest ticket number within its book"; an
# eInstant's by serial, its position plus one: "by serial: one last digit" names the top prize's last digit;
# and 1e's "close together": with two top prizes, "1 of 1 gaps at most g apart" says that once one is
# claimed, the other lies within g of it; 1g's "most in consecutive", whose figures name the books or
# blocks a level crowds in; 1f's, per book by printed book number in tenths, rank the numbers; 1i's, a level
# in the top prizes' books or beside one: a failing one says to buy the rest of a claimed top prize's book;
# the run's "same book of print order", whose figures name the book holding a top group in the most pools;
# 1j's, a loser's feature against the next ticket's prize: a failing one says which spot of a scratched
# loser to watch before buying the next ticket; 1k's, against the book's highest prize: which spot of a
# book's first or last loser says to buy the rest of the book; 1l's runs of losers, "the last loser before a
# winner": which reveal of a scratched loser to watch)
NUMBERS = re.compile(r"by printed book number|by ticket number within the book|ticket number within its book"
                     r"|by serial\b|close together|most in consecutive|in the books of the top prizes"
                     r"|beside a top prize|same book of print order|against the next ticket's prize"
                     r"|against the book's highest prize|the last loser before a winner")
WITHHELD = "withheld: it names a position (internal edition)"
# what names a place in a reason of steps 1 to 7 and 9: a ticket id (GGG-BBBBBBB-TTT, GGGG-...) or a share's
# (POOL-NNNNNNN), or a book, slot, pack, block, position, row, serial, ticket or share followed by its
# number ("book 23 holds 2" of a capped tier, "(row 1634) pays 0 cents, stores 10000")
PLACE = re.compile(r"\b\d{3,4}-\d{7}-\d{3}\b|-\d{7}\b"
                   r"|\b(?:books?|slots?|packs?|blocks?|positions?|rows?|serials?|tickets?|shares?)\s+\d")
WHERE = "where: withheld (internal edition)"


def withheld(name: str, figures: str) -> bool:
    """Whether the public edition withholds a test's figures and its p-value: its figures name a position,
    or it is a test of a position (the first or last top prize's) or of the printed numbers. The p-value
    goes with the figure because it is a function of it: P(min >= x) = C(N - x, t) / C(N, t) printed as
    0.164 is one x of the pool's (tests/poolgen/pdf/test_report_withheld.py)."""
    return bool(POSITION.search(figures) or POSITION.search(name) or NUMBERS.search(name))


def checklist_lines(step: StepResult, internal: bool = True) -> tuple[str, ...]:
    """What the report's checklist shows of a verify step: everything, except for step 8 only its
    failures and each pool's summary line (every test is on the pool's statistics page). The public
    edition shows a failed test that `withheld` holds back by its name alone, no summary's smallest
    p-value (it may be a withheld test's), and the other steps' reasons `placeless` (docs/proofs.md)."""
    if step.title != "statistics":  # what passed says what was checked, over ranges the manifest states
        reasons = tuple(step.reasons) if internal else tuple(placeless(line) for line in step.reasons)
        return reasons + tuple(step.details)
    reasons = tuple(step.reasons) if internal else tuple(_public_reason(step, line) for line in step.reasons)
    summaries = [d if internal else SMALLEST.sub("", d) for d in step.details
                 if SUMMARY.match(d) or ": " not in d]
    if not summaries:
        return reasons
    return (*reasons, *summaries, "every test with its figures: each pool's statistics page")


def placeless(line: str) -> str:
    """A checklist line as the public edition shows it: each of its "; "-separated findings that names
    a place (PLACE) cut at the last ": " or ", " before it, what follows withheld."""
    parts = []
    for part in line.split("; "):
        found = PLACE.search(part)
        if found:
            head = part[:found.start()]
            cut = max(head.rfind(": "), head.rfind(", "))
            part = (head[:cut + 2] if cut >= 0 else "") + WHERE
        parts.append(part)
    return "; ".join(parts)


def _public_reason(step: StepResult, line: str) -> str:
    """A step-8 reason as the public edition shows it: a failed test that names a position by its
    name (and where) alone."""
    for f in step.figures:
        where = f"pool {f['pool']}" if f["pool"] is not None else "run"
        head = f"{where}: {f['test']} ({f['method']}): "
        if line.startswith(head):
            return (f"{where}: {f['test']}: {WITHHELD}" if withheld(f["test"], f["statistic"])
                    else THRESHOLD.sub(",", line))
    return THRESHOLD.sub(",", line)


def statistics_page(run: RunFolder, entry: Mapping[str, Any], internal: bool) -> list[Flowable]:
    """Flowables of one pool's statistics page (ending with a page break). The public edition
    withholds the figures and p-value of a test `withheld` names, and every test's Holm threshold."""
    pid = entry["id"]
    out: list[Flowable] = [r.para(f"Pool {r.escape(pid)}: statistics (verify step 8)", r.H1)]
    pools = len(run.pools)
    unit = (f"book of {run.parsed.tickets_per_book}" if run.kind == "printed"
            else f"block of {BLOCK:,} shares")
    out.append(r.para(
        f"Tests of a uniform shuffle and of the layout contract's no-information promises "
        f"(audit/stats/; docs/statistics.md). Family-wise error {100 * ALPHA:g}% for the run: "
        f"{100 * pool_alpha(pools):.3g}% for this pool ({100 * pools * pool_alpha(pools):.3g}% split over "
        f"{pools} pool(s); the rest is the run-level tests', in verify's step 8: the top tiers, and with two "
        f"or more pools each pool's tests combined), with Holm's "
        f"step-down across the pool's tests. Winners are counted per {r.escape(unit)}."
        + ("" if internal else " The figures and p-value of a test that names a position (the p-value is a "
           "function of them), and each test's Holm threshold: internal edition (a threshold ranks its "
           "test among every p-value of the pool)."), r.SMALL))
    try:
        play = run.parsed.doc.get("play")
        pool = run.entry(pid)
        recorded = manifest_packs(run.parsed.doc)  # the packs' rules, as verify's step 8 holds them
        packs = None if recorded is None else for_pool(recorded, pool.price_cents)
        wanted = columns_needed(play, run.kind, pool.columns)
        if packs is not None and (packs.caps or packs.spacing):
            wanted.append("tier")  # which tickets a cap or spacing rule holds (audit/stats/packs.py)
        table = run.read(pid, wanted)
        s = pool_statistics(table, pool, rules=run.parsed.rules, kind=run.kind,
                            per_book=run.parsed.tickets_per_book, pools=pools, play=play, packs=packs,
                            sign=run.parsed.sign)
    except (RunError, UnusableInput, KeyError, ValueError, TypeError) as exc:
        out.append(r.para(f"<font color='{r.BAD.hexval()}'><b>The statistics could not be computed: "
                        f"{r.escape(exc)}</b></font>"))
        out.append(PageBreak())
        return out
    verdict = (f"<font color='{r.BAD.hexval()}'><b>FAIL: {len(s.failed)} test(s) significant</b></font>"
               if s.failed else f"<font color='{r.GOOD.hexval()}'><b>PASS: no test significant</b></font>")
    out.append(r.para(f"{verdict} ({len(s.judged)} tests).", r.BODY))
    out.append(Spacer(1, 4))
    head: list[r.Cell] = ["test", "method", "statistic", "p-value"]
    rows: list[list[r.Cell]] = [[*head, r.para("<b>Holm<br/>threshold</b>", r.CELL), "result"] if internal
                                else [*head, "result"]]
    for j in s.judged:
        f = j.finding
        color = r.BAD if j.rejected else r.GOOD
        hide = not internal and withheld(f.name, f.figures)
        row: list[r.Cell] = [r.para(r.escape(f.name), r.CELL), r.para(r.escape(f.method), r.CELL),
                             r.para(r.escape(WITHHELD if hide else f.figures), r.CELL),
                             "withheld" if hide else fmt_p(f.p)]
        if internal:  # a threshold is the test's rank among the pool's p-values, withheld ones too
            row.append(fmt_p(j.threshold))
        rows.append([*row, r.para(f"<font color='{color.hexval()}'><b>{'FAIL' if j.rejected else 'pass'}</b>"
                                  "</font>", r.CELL)])
    widths = [1.9 * inch, 1.65 * inch, 1.35 * inch, 0.7 * inch] + ([0.7 * inch] if internal else [])
    out.append(r.grid(rows, [*widths, 0.5 * inch], right_from=3))
    if s.not_tested:
        out.append(Spacer(1, 4))
        out.append(r.para("Not tested: " + r.escape("; ".join(s.not_tested)) + ".", r.SMALL))
    out.append(PageBreak())
    return out
