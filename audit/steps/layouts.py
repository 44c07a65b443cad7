"""Step 4 of the checklist (audit/verify.py), per pool: every layout re-evaluated by audit's own
engines of the game's play styles (audit/styles/) pays the prize stored with it."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.checklist import SHOWN, Step
from audit.errors import VerificationError
from audit.read.manifest import PoolEntry
from audit.styles.interface import READ
from audit.styles.play import evaluate_play

COMMON = ("position", "ticket", "tier", "prize_cents", "salt")  # and book, ticket_no or serial


def check_layouts(table: pl.DataFrame, pool: PoolEntry, rules: str,
                  play: dict[str, Any] | None = None) -> str:
    """(4) every layout, evaluated by the audit's own engine of its styles (audit.styles, from the
    manifest's `play` entry), pays the stored prize, and the pool file holds no column beside the
    common ones (docs/pool-files.md) but those the engines read. A run without a `play` entry is
    refused."""
    read: set[str] = set()
    token = READ.set(read)
    try:
        if play is not None and "style" in play:  # a ticket-wide style (an eInstant)
            try:
                result = evaluate_play(table, pool.raw, play)
            except ValueError as exc:
                raise VerificationError(Step.LAYOUTS, str(exc)) from None
            engine_name = f"audit.styles.{play['style']}"
        elif play is not None:  # a play of areas
            result = evaluate_play(table, pool.raw, play)
            engine_name = "audit.styles (" + ", ".join(sorted({a["style"] for a in play["areas"]})) + ")"
        else:  # every game is of play styles: a run without a play entry names rules no engine has
            raise VerificationError(Step.LAYOUTS, f"no audit rules for game rules {rules!r}")
    finally:
        READ.reset(token)
    common = COMMON + (("serial",) if "serial" in table.columns else ("book", "ticket_no"))
    unread = [c for c in table.columns if c not in common and c not in read]
    n = table.height
    prize = np.asarray(result.prize_cents)
    if prize.dtype != object:  # an object array holds exact prizes int64 cannot (Evaluation)
        prize = prize.astype(np.int64, copy=False)
    wins = np.asarray(result.wins, dtype=np.int64)
    if prize.shape != (n,) or wins.shape != (n,):
        raise VerificationError(Step.LAYOUTS,
                                f"the rules engine returned {prize.shape} prizes and {wins.shape} wins "
                                f"for {n:,} rows")
    stored = table["prize_cents"].cast(pl.Int64).to_numpy()
    ticket = table["ticket"]
    problems = []
    if unread:
        problems.append(f"column(s) {', '.join(unread[:SHOWN])} no style's contract gives this pool "
                        "(docs/pool-files.md): no engine reads them")
    wrong = np.flatnonzero(prize != stored)
    if wrong.size:
        shown = ", ".join(f"{ticket[int(r)]} (row {r}) pays {prize[r]} cents, stores {stored[r]}"
                          for r in wrong[:SHOWN])
        problems.append(f"{wrong.size:,} layout(s) do not pay the stored prize: {shown}")
    odd = np.flatnonzero((prize > 0) != (wins > 0))
    if odd.size:
        shown = ", ".join(f"row {r}: {wins[r]} win(s), {prize[r]} cents" for r in odd[:SHOWN])
        problems.append(f"{odd.size:,} layout(s) win without paying or pay without a win: {shown}")
    if result.illegal:
        shown = "; ".join(f"{ticket[int(r)]} (row {r}): {why}" for r, why in result.illegal[:SHOWN])
        problems.append(f"{len(result.illegal):,} illegal layout(s): {shown}")
    if problems:
        raise VerificationError(Step.LAYOUTS, "; ".join(problems))
    return (f"{n:,} layouts evaluated by {engine_name}: each pays its stored prize "
            f"({int((prize > 0).sum()):,} winners), none illegal")
