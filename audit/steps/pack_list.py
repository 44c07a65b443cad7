"""Step 9's pack list (docs/validation.md section 4): each book of the run (of the order, for a split
order's run) once, sorted, with its ticket range, written in plain digits, commas and LF line ends, and
nothing else; a list that is not names its first line that differs from the one the books give."""

from __future__ import annotations

import io
from collections.abc import Sequence
from itertools import zip_longest
from pathlib import Path
from typing import Any

import polars as pl

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.game_number import game_text, is_game_number
from audit.read.runfiles import deliverable_limit, read_run_bytes

PACK_COLUMNS = ["game", "book", "first_ticket", "last_ticket", "tickets"]


def check_packs(folder: Path, entry: dict[str, Any], books: Sequence[int], per_book: int, game: int,
                tickets: int, order: bool = False) -> str:
    if not is_game_number(game):  # step 5 names the field; a line of it cannot be written
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: game.number {game!r} is not a game "
                                                   "number: its books' lines cannot be recomputed")
    data = read_run_bytes(folder, entry["name"], "pack list", deliverable_limit("packs", tickets))
    try:
        packs = pl.read_csv(io.BytesIO(data), infer_schema=False)
    except (pl.exceptions.PolarsError, ValueError) as exc:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: not a CSV pack list: "
                                f"{' '.join(str(exc).split())[:80]}") from None
    if packs.columns != PACK_COLUMNS:
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: columns {packs.columns} are not {PACK_COLUMNS}")
    of = " of the order" if order else ""  # a split order's (print.split): its list names no pool
    want = ([[game_text(game), str(b), "0", str(per_book - 1), str(per_book)] for b in sorted(books)]
            if packs.height == len(books) else None)  # no billion rows for a manifest's order of a billion
    if want is None or [list(r) for r in packs.iter_rows()] != want:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: not every book{of} once, sorted, "
                                                   f"with tickets 0..{per_book - 1}: "
                                                   f"{_first_wrong_line(packs, books, per_book, game)}")
    exact = "".join(",".join(r) + "\n" for r in [PACK_COLUMNS, *want]).encode()
    if data != exact:  # the list is public: quoting, spaces or line ends could mark books
        got, made = data.splitlines(keepends=True), exact.splitlines(keepends=True)
        line = next((i for i, (a, b) in enumerate(zip(got, made, strict=False)) if a != b),
                    min(len(got), len(made)))
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: line {line + 1} is not written as docs/validation.md "
                                "section 4 gives it (plain digits, commas, LF line ends): a public file "
                                "may carry nothing but the books")
    return (f"{entry['name']}: {len(want):,} books{of}, sorted, each with its ticket range; "
            "no outcome, no pool")


def _first_wrong_line(packs: pl.DataFrame, books: Sequence[int], per_book: int, game: int) -> str:
    """The pack list's first line (the header is line 1) not the one the books give, as a reason names
    it: read one row past the shorter of the two, never the whole order's books."""
    ordered = books if isinstance(books, range) else sorted(books)  # a split order's: a range, maybe huge
    want = (f"{game_text(game)},{b},0,{per_book - 1},{per_book}" for b in ordered)
    rows = (",".join("" if v is None else v for v in r) for r in packs.iter_rows())  # a blank cell: null
    for i, (got, made) in enumerate(zip_longest(rows, want)):
        line, shown = i + 2, None if got is None else repr(got if len(got) <= 80 else got[:77] + "...")
        if shown is None:
            return f"no line {line}, where {made!r} is expected"
        if made is None:
            return f"line {line} {shown} is past the last book"
        if got != made:
            return f"line {line} reads {shown} where {made!r} is expected"
    return "its rows are the books'"  # not reached: called only when they are not
