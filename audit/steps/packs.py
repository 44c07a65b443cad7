"""A printed run's pack parameters, from its pool files (docs/new-game.md, "Pack parameters"):

- step 4: no two consecutive tickets of a pack (with `neighbours = "across packs"`, of the pool)
  show identical play data, spot for spot: every layout column (every column but the ones every
  pool file shares, docs/pool-files.md) equal;
- step 5 (with --spec): every pack meets the spec's min/max winners, minimum prize value, caps per
  tier or prize level, and spacing in print order.
Each failure names the pool, the pack (its printed book number) and the rule.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from audit.checklist import SHOWN, Step
from audit.errors import VerificationError
from audit.read.specs.packs import PackRules

__all__ = ["SHARED_COLUMNS", "check_neighbours", "check_pack_rules", "pack_outcomes"]

SHARED_COLUMNS = {"position", "ticket", "book", "ticket_no", "serial", "tier", "prize_cents", "salt"}


def check_neighbours(table: pl.DataFrame, per_book: int, rules: PackRules) -> str:
    """(4) no identical play data on consecutive tickets of a pack (or pool, across packs)."""
    if not rules.neighbours:
        return "the spec turns the neighbour rule off (packs.neighbours = \"off\")"
    layout = [c for c in table.columns if c not in SHARED_COLUMNS]
    n = table.height
    if not layout or n < 2:
        return "no layout columns to compare" if not layout else "one ticket: no neighbours"
    same = np.ones(n - 1, dtype=bool)
    for c in layout:
        v = table[c].to_numpy()
        same &= v[1:] == v[:-1]
    if not rules.across:
        same &= (np.arange(1, n) % per_book) != 0
    pairs = np.flatnonzero(same)
    where = "of a pack" if not rules.across else "of the pool, across packs too"
    if pairs.size:
        ticket = table["ticket"]
        shown = ", ".join(f"book {table['book'][int(p)]}: {ticket[int(p)]} and {ticket[int(p) + 1]}"
                          for p in pairs[:SHOWN])
        raise VerificationError(Step.LAYOUTS, f"{pairs.size:,} pair(s) of consecutive tickets {where} "
                                              f"with identical play data (packs.neighbours): {shown}")
    return (f"no two consecutive tickets {where} show identical play data "
            f"({len(layout)} layout columns compared)")


def _members(table: pl.DataFrame, tiers: tuple[str, ...], prize: int | None) -> np.ndarray:
    if prize is not None:
        return np.asarray(table["prize_cents"].cast(pl.Int64).to_numpy() == prize)
    return np.asarray(table["tier"].is_in(list(tiers)).to_numpy())


def check_pack_rules(table: pl.DataFrame, per_book: int, rules: PackRules) -> str:
    """(5) every pack meets the spec's winners, prize value, caps and spacing."""
    n = table.height
    books = n // per_book
    number = table["book"].cast(pl.Int64).to_numpy()[::per_book]
    prize = table["prize_cents"].cast(pl.Int64).to_numpy()[: books * per_book].reshape(books, per_book)
    win = (table["tier"] != "lose").to_numpy()[: books * per_book].reshape(books, per_book)
    problems: list[str] = []

    def bad(mask: np.ndarray, rule: str, say: np.ndarray, what: str) -> None:
        at = np.flatnonzero(mask)
        if at.size:
            shown = ", ".join(f"book {number[b]} {what} {say[b]}" for b in at[:SHOWN])
            problems.append(f"{at.size:,} pack(s) break {rule}: {shown}")

    winners, value = win.sum(axis=1), prize.sum(axis=1)
    if rules.min_winners is not None:
        bad(winners < rules.min_winners, f"packs.min_winners ({rules.min_winners})", winners, "has winners")
    if rules.max_winners is not None:
        bad(winners > rules.max_winners, f"packs.max_winners ({rules.max_winners})", winners, "has winners")
    if rules.min_prize_cents is not None:
        bad(value < rules.min_prize_cents, f"packs.min_prize_value ({rules.min_prize_cents} cents)", value,
            "pays cents")
    for cap in rules.caps:
        held = _members(table, cap.tiers, cap.prize_cents)[: books * per_book].reshape(books, per_book).sum(1)
        bad(held > cap.at_most, f"{cap.label} (at most {cap.at_most})", held, "holds")
    for rule in rules.spacing:
        at = np.flatnonzero(_members(table, rule.tiers, rule.prize_cents))
        close = (np.diff(at) < rule.min_distance) & (at[1:] // per_book == at[:-1] // per_book)
        packs = np.zeros(books, dtype=bool)
        gap = np.zeros(books, dtype=np.int64)
        packs[at[1:][close] // per_book] = True
        gap[at[1:][close] // per_book] = np.diff(at)[close]
        bad(packs, f"{rule.label} (at least {rule.min_distance} apart)", gap, "has two tickets apart by")
    if problems:
        raise VerificationError(Step.FIGURES, "; ".join(problems))
    said = [f"winners {winners.min()}..{winners.max()}", f"prizes {value.min()}..{value.max()} cents"]
    return (f"every one of {books:,} packs meets the spec's pack parameters ({', '.join(said)} per pack; "
            f"{len(rules.caps)} cap(s), {len(rules.spacing)} spacing rule(s))")


def pack_outcomes(table: pl.DataFrame, per_book: int, rules: PackRules,
                  with_spec: bool) -> list[tuple[Step, str, str]]:
    """(step, status, message) of one pool of a printed run, from its table (read once by verify for
    steps 2 to 6; an unreadable pool file is steps 2 and 3's to name)."""
    out: list[tuple[Step, str, str]] = []
    checks = [(Step.LAYOUTS, check_neighbours)]
    if with_spec and rules.composition:
        checks.append((Step.FIGURES, check_pack_rules))
    for step, check in checks:
        try:
            out.append((step, "pass", check(table, per_book, rules)))
        except VerificationError as exc:
            out.append((step, "fail", exc.reason))
        except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
            out.append((step, "fail", f"could not be checked: {type(exc).__name__}: {exc}"))
    return out
