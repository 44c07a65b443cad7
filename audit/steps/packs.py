"""A printed run's pack parameters, and an eInstant run's block parameters (a block of consecutive
serials is a pack), from its pool files (docs/new-game.md, "Pack parameters"):

- step 4: no two consecutive tickets of a pack (with `neighbours = "across packs"`, of the pool)
  show identical play data, spot for spot: every layout column (every column but the ones every
  pool file shares, docs/pool-files.md) equal;
- step 5: every pack meets the min/max winners, minimum prize value, caps per tier or prize level,
  and spacing in print order that the manifest records (`print.packs`) or, with --spec, the spec
  states; with both, the manifest's parameters must be the spec's (check_recorded_packs).
Each failure names the pool, the pack (its printed book number; an eInstant's block by its number
from 1 and its serials; an eInstant without blocks, the serials alone) and the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import polars as pl

from audit.checklist import SHOWN, Step
from audit.errors import VerificationError
from audit.read.specs.packs import PackRules

__all__ = ["SHARED_COLUMNS", "check_neighbours", "check_pack_rules", "check_recorded_packs",
           "pack_name", "pack_outcomes"]

SHARED_COLUMNS = {"position", "ticket", "book", "ticket_no", "serial", "tier", "prize_cents", "salt"}


def pack_name(table: pl.DataFrame, per_book: int, b: int) -> str:
    """Pack b of the pool as a reader finds it: its printed book number, or an eInstant's block."""
    if "book" in table.columns:
        return f"book {table['book'][b * per_book]}"
    return f"block {b + 1:,} (serials {b * per_book + 1:,}..{(b + 1) * per_book:,})"


def check_neighbours(table: pl.DataFrame, per_book: int, rules: PackRules) -> str:
    """(4) no identical play data on consecutive tickets of a pack (or pool, across packs; an eInstant
    without blocks: every pair of consecutive serials)."""
    field, blocks = rules.table, rules.size is not None  # blocks: an eInstant's blocks of serials
    if not rules.neighbours:
        return ("the spec turns the neighbour rule off (packs.neighbours = \"off\")" if field == "packs"
                else "no neighbour rule on the blocks (blocks.neighbours = \"off\")" if blocks
                else "no neighbour rule (blocks.neighbours = \"off\")")
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
    unit = "pack" if field == "packs" else "block"
    where = (f"of a {unit}" if not rules.across else "of the pool (consecutive serials)" if not blocks
             and field == "blocks" else f"of the pool, across {unit}s too")
    if pairs.size:
        ticket = table["ticket"]
        if field == "blocks" and not blocks:
            serial = table["serial"] if "serial" in table.columns else pl.Series(np.arange(1, n + 1))
            shown = ", ".join(f"serials {serial[int(p)]:,} and {serial[int(p) + 1]:,}: {ticket[int(p)]} and "
                              f"{ticket[int(p) + 1]}" for p in pairs[:SHOWN])
        else:
            shown = ", ".join(f"{pack_name(table, per_book, int(p) // per_book)}: {ticket[int(p)]} and "
                              f"{ticket[int(p) + 1]}" for p in pairs[:SHOWN])
        raise VerificationError(Step.LAYOUTS, f"{pairs.size:,} pair(s) of consecutive tickets {where} "
                                              f"with identical play data ({field}.neighbours): {shown}")
    return (f"no two consecutive tickets {where} show identical play data "
            f"({len(layout)} layout columns compared)")


def _members(table: pl.DataFrame, tiers: tuple[str, ...], prize: int | None) -> np.ndarray:
    if prize is not None:
        return np.asarray(table["prize_cents"].cast(pl.Int64).to_numpy() == prize)
    return np.asarray(table["tier"].is_in(list(tiers)).to_numpy())


def check_pack_rules(table: pl.DataFrame, per_book: int, rules: PackRules, whose: str = "spec") -> str:
    """(5) every pack meets the winners, prize value, caps and spacing of `whose` (the spec or the
    manifest)."""
    n = table.height
    books = n // per_book
    field = rules.table
    prize = table["prize_cents"].cast(pl.Int64).to_numpy()[: books * per_book].reshape(books, per_book)
    win = (table["tier"] != "lose").to_numpy()[: books * per_book].reshape(books, per_book)
    problems: list[str] = []

    def bad(mask: np.ndarray, rule: str, say: np.ndarray, what: str) -> None:
        at = np.flatnonzero(mask)
        if at.size:
            shown = ", ".join(f"{pack_name(table, per_book, int(b))} {what.format(say[b])}"
                              for b in at[:SHOWN])
            problems.append(f"{at.size:,} {field[:-1]}(s) break {rule}: {shown}")

    winners, value = win.sum(axis=1), prize.sum(axis=1)
    if rules.min_winners is not None:
        bad(winners < rules.min_winners, f"{field}.min_winners ({rules.min_winners})", winners,
            "has {} winners")
    if rules.max_winners is not None:
        bad(winners > rules.max_winners, f"{field}.max_winners ({rules.max_winners})", winners,
            "has {} winners")
    if rules.min_prize_cents is not None:
        floor = "min_prize_value" if rules.size is None else "min_prize_times"
        bad(value < rules.min_prize_cents, f"{field}.{floor} ({rules.min_prize_cents} cents)", value,
            "pays {} cents")
    for cap in rules.caps:
        held = _members(table, cap.tiers, cap.prize_cents)[: books * per_book].reshape(books, per_book).sum(1)
        bad(held > cap.at_most, f"{cap.label} (at most {cap.at_most})", held, "holds {}")
    for rule in rules.spacing:
        at = np.flatnonzero(_members(table, rule.tiers, rule.prize_cents))
        close = (np.diff(at) < rule.min_distance) & (at[1:] // per_book == at[:-1] // per_book)
        packs = np.zeros(books, dtype=bool)
        gap = np.zeros(books, dtype=np.int64)
        packs[at[1:][close] // per_book] = True
        gap[at[1:][close] // per_book] = np.diff(at)[close]
        bad(packs, f"{rule.label} (at least {rule.min_distance} apart)", gap, "has two tickets apart by {}")
    if problems:
        raise VerificationError(Step.FIGURES, "; ".join(problems))
    said = [f"winners {winners.min()}..{winners.max()}", f"prizes {value.min()}..{value.max()} cents"]
    unit, units = ("pack", "packs") if rules.size is None else (f"block of {per_book:,} serials",
                                                                f"blocks of {per_book:,} serials")
    return (f"every one of {books:,} {units} meets the {whose}'s {field[:-1]} parameters ({', '.join(said)} "
            f"per {unit}; {len(rules.caps)} cap(s), {len(rules.spacing)} spacing rule(s))")


def pack_outcomes(table: pl.DataFrame, per_book: int, rules: PackRules,
                  whose: str | None) -> list[tuple[Step, str, str]]:
    """(step, status, message) of one pool of a printed run, from its table (read once by verify for
    steps 2 to 6; an unreadable pool file is steps 2 and 3's to name). `whose` says where `rules`
    come from ("spec" or "manifest"); None: neither states them (the default neighbour rule alone)."""
    out: list[tuple[Step, str, str]] = []
    Check = Callable[[pl.DataFrame, int, PackRules], str]
    checks: list[tuple[Step, Check]] = [(Step.LAYOUTS, check_neighbours)]
    if whose is not None and rules.composition:
        checks.append((Step.FIGURES, lambda t, m, r: check_pack_rules(t, m, r, whose)))
    for step, check in checks:
        try:
            out.append((step, "pass", check(table, per_book, rules)))
        except VerificationError as exc:
            out.append((step, "fail", exc.reason))
        except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
            out.append((step, "fail", f"could not be checked: {type(exc).__name__}: {exc}"))
    return out


def _tiers(tiers: tuple[str, ...], prize: int | None, paying: Sequence[tuple[str, int]]) -> list[str]:
    """The tier ids a rule names as written (docs/manifest.md: in the spec's order, each once), a prize
    level resolved to the tiers paying it in the pools' tier order."""
    if prize is None:
        return list(tiers)
    return list(dict.fromkeys(t for t, cents in paying if cents == prize))


def check_recorded_packs(recorded: PackRules | None, spec: PackRules,
                         paying: Sequence[tuple[str, int]]) -> str:
    """(5, with --spec) the manifest's `print.packs` is the spec's `[packs]` (an eInstant's `blocks` its
    `[blocks]`), field by field (a prize level compared as the tiers paying it, `paying`: (tier id, prize
    cents) of the manifest's pools)."""
    printed = spec.table == "packs" and (recorded is None or recorded.table == "packs")
    where = "print.packs" if printed else "blocks"
    if recorded is None:
        if spec.size is not None and (spec.neighbours or spec.composition):
            raise VerificationError(Step.FIGURES, "blocks: the manifest records no block parameters, the "
                                                  "spec states [blocks]")
        if spec.table == "blocks":
            return ("the manifest records no block parameters: a run made before eInstants had the neighbour "
                    "rule by default (2026-12-02), made and checked without it")
        return "the manifest records no pack parameters (a run made before manifests did): the spec's apply"
    said: list[tuple[str, object, object]] = [
        ("shares", recorded.size, spec.size),
        ("min_prize_times", recorded.min_prize_times, spec.min_prize_times),
        ("neighbours", _neighbours(recorded), _neighbours(spec)),
        ("min_winners", recorded.min_winners, spec.min_winners),
        ("max_winners", recorded.max_winners, spec.max_winners),
        ("min_prize_cents", recorded.min_prize_cents, spec.min_prize_cents),
        ("caps", f"{len(recorded.caps)} cap(s)", f"{len(spec.caps)} cap(s)"),
        ("spacing", f"{len(recorded.spacing)} rule(s)", f"{len(spec.spacing)} rule(s)")]
    for cap, spec_cap in zip(recorded.caps, spec.caps, strict=False):  # counts compared above
        said += [(f"{spec_cap.label}.tiers", _tiers(cap.tiers, cap.prize_cents, paying),
                  _tiers(spec_cap.tiers, spec_cap.prize_cents, paying)),
                 (f"{spec_cap.label}.at_most", cap.at_most, spec_cap.at_most)]
    for rule, spec_rule in zip(recorded.spacing, spec.spacing, strict=False):
        said += [(f"{spec_rule.label}.tiers", _tiers(rule.tiers, rule.prize_cents, paying),
                  _tiers(spec_rule.tiers, spec_rule.prize_cents, paying)),
                 (f"{spec_rule.label}.min_distance", rule.min_distance, spec_rule.min_distance)]
    for field, got, want in said:
        if got != want:
            name = field.removeprefix("packs.").removeprefix("blocks.")
            raise VerificationError(Step.FIGURES, f"{where}.{name}: the manifest records {_say(got)}, the "
                                                  f"spec states {_say(want)}")
    return f"the manifest's pack parameters ({where}) are the spec's [{spec.table}]"


def _neighbours(rules: PackRules) -> str:
    said = "off" if not rules.neighbours else "across packs" if rules.across else "within packs"
    return said if rules.table == "packs" else said.replace("packs", "blocks")


def _say(value: object) -> str:
    if value is None:
        return "none"
    return ", ".join(value) if isinstance(value, list) else str(value)
