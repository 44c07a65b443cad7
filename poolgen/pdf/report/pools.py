"""A pool's prize-structure page of the audit report, and the pool data it and the charts use: the
tier positions and the winners and prize value per book (printed games) or per block of 10,000
shares (eInstants), read once from the pool file; the table recounts every tier from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, PageBreak, Spacer

from poolgen.errors import RunError
from poolgen.money import USD, Currency, fmt_cents
from poolgen.pdf.report.text import CELL, H1, SMALL, Cell, escape, grid, odds_text, para, percent
from poolgen.run.folder import RunFolder

BLOCK = 10_000  # eInstant shares per block in the distribution charts


@dataclass(frozen=True)
class PoolData:
    entry: Mapping[str, Any]  # the pool's manifest entry
    positions: dict[str, npt.NDArray[np.int64]]  # tier id -> positions, ascending
    group_x: npt.NDArray[np.integer]  # book slot (its place in print order) or block start
    winners: npt.NDArray[np.integer]
    value_cents: npt.NDArray[np.integer]
    group_name: str
    currency: Currency = USD  # the game's (the manifest's `game.currency`)


def pool_data(run: RunFolder, entry: Mapping[str, Any]) -> PoolData:
    printed = run.kind == "printed"
    cols = ["position", "tier", "prize_cents"]
    run.require(entry["id"], cols)
    df = run.read(entry["id"], cols)
    nulls = [c for c in cols if df[c].null_count()]
    if nulls:
        raise RunError(f"{run.name}: pool {entry['id']}: null values in column(s) {', '.join(nulls)}")
    # per book slot, in print order (never by the secret printed book number), or per block of shares
    per_book = run.parsed.tickets_per_book or 1
    key = (pl.col("position") // per_book + (entry.get("first_book") or 0) if printed
           else (pl.col("position") // BLOCK) * BLOCK)
    try:
        positions = {t: np.sort(np.asarray(p, dtype=np.int64)) for t, p in
                     df.group_by("tier").agg(pl.col("position")).iter_rows()}
        per = (df.group_by(key.alias("g"))
               .agg((pl.col("prize_cents") > 0).sum().alias("w"),
                    pl.col("prize_cents").sum().alias("v"))
               .sort("g"))
    except (pl.exceptions.PolarsError, ValueError, TypeError) as exc:
        raise RunError(f"{run.name}: cannot read pool {entry['id']}: {exc}") from None
    return PoolData(entry, positions, per["g"].to_numpy(), per["w"].to_numpy(),
                     per["v"].to_numpy(), "book slot" if printed else f"block of {BLOCK:,} shares",
                     run.currency)


def prize_table(run: RunFolder, p: Mapping[str, Any], d: PoolData | None,
                unreadable: str, labels: Mapping[str, str]) -> list[Flowable]:
    """The pool's prize structure; `labels`: tier id -> the name the spec gives it (with --spec)."""
    tickets, price = p["tickets"], p["price_cents"]
    title = f"Pool {p['id']}: prize structure"
    out: list[Flowable] = [para(escape(title), H1)]
    desc = [f"{tickets:,} {'tickets' if run.kind == 'printed' else 'shares'} at "
            f"{fmt_cents(price, run.currency)}"]
    if p.get("books") is not None:
        desc.append(f"{p['books']:,} books (the order's book slots {p['first_book']:,} to "
                    f"{p['first_book'] + p['books'] - 1:,}; their printed numbers are a secret "
                    "permutation, docs/validation.md)")
    if p.get("denomination_cents") is not None:
        desc.append(f"denomination {fmt_cents(p['denomination_cents'], run.currency)} x "
                    f"{p.get('play_areas', 1)} play area(s)")
    f = p.get("file", {})
    desc.append(f"file {f.get('name', '?')} ({f.get('bytes', 0):,} bytes, SHA-256 "
                f"{f.get('sha256', '?')})")
    if p.get("merkle"):
        desc.append(f"Merkle root {p['merkle'].get('root')}")
    out.append(para(escape("; ".join(desc)) + ".", SMALL))
    out.append(Spacer(1, 4))
    rows: list[list[Cell]] = [["tier", "prize", "count", "odds 1 in", "prize cost", "share of cost"]]
    cost = p["prize_cost_cents"]
    for t in p["tiers"]:
        tier_cost = t["count"] * t["prize_cents"]
        # a paragraph: a long tier name (a row of many wins, "$5 (5X) + $5 (5X) + ...") wraps in its column
        rows.append([para(escape(labels.get(t["id"], t["id"])), CELL),
                     fmt_cents(t["prize_cents"], run.currency),
                     f"{t['count']:,}",
                     odds_text(tickets, t["count"]), fmt_cents(tier_cost, run.currency),
                     percent(tier_cost, cost) if t["prize_cents"] else "-"])
    rows.append(["winners", "", f"{p['winners']:,}", odds_text(tickets, p["winners"]),
                 fmt_cents(cost, run.currency), ""])
    rows.append(["all tickets", "", f"{tickets:,}", "", f"sales {fmt_cents(tickets * price, run.currency)}",
                 f"payout {percent(cost, tickets * price)}"])
    out.append(grid(rows, [2.0 * inch, 0.95 * inch, 0.75 * inch, 0.85 * inch, 1.2 * inch,
                            1.0 * inch], total_rows=2))
    out.append(Spacer(1, 6))
    if d is None:
        out.append(para(f"<font color='#C92A2A'><b>The pool file cannot be read</b></font> "
                      f"({escape(unreadable)}): nothing was recounted and there are no charts.",
                      SMALL))
        out.append(PageBreak())
        return out
    recount = {t: len(v) for t, v in d.positions.items()}
    diffs = [f"{t['id']}: file {recount.get(t['id'], 0):,}, manifest {t['count']:,}"
             for t in p["tiers"] if recount.get(t["id"], 0) != t["count"]]
    extra = sorted(set(recount) - {t["id"] for t in p["tiers"]})
    diffs += [f"{t}: {recount[t]:,} in the file, not in the manifest" for t in extra]
    if diffs:
        out.append(para("<font color='#C92A2A'><b>Recounted from the pool file: the counts "
                      "DIFFER</b></font> - " + escape("; ".join(diffs)), SMALL))
    else:
        out.append(para(f"Recounted from {escape(f.get('name', 'the pool file'))}: every tier count "
                      f"agrees with the manifest.", SMALL))
    out.append(PageBreak())
    return out
