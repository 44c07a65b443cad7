"""Step 3 of the checklist (audit/verify.py): every pool complete, every ticket identity the one its
position (and, for printed games, its book) gives, salts well formed, no ticket id in two pools."""

from __future__ import annotations

import numpy as np
import polars as pl

from audit.checklist import SHOWN, Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest, PoolEntry
from audit.steps.books import book_problems, leading_books

# ---- step 3 -------------------------------------------------------------------------------------

def _first(rows: np.ndarray) -> str:
    return ", ".join(str(int(r)) for r in rows[:SHOWN])


def _differs(got: pl.Series, want: pl.Series) -> np.ndarray:
    """Rows where `got` is not `want` (a null is never what is wanted)."""
    return (got != want).fill_null(True).to_numpy().astype(bool)


def _mismatch(what: str, got: pl.Series, want: pl.Series) -> str | None:
    """None if every row of `got` is `want`'s, else how many differ and the first, by position."""
    bad = np.flatnonzero(_differs(got, want))
    if not bad.size:
        return None
    r = int(bad[0])
    return (f"{bad.size:,} {what} not as recomputed from the position, first at position {r:,}: "
            f"{got[r]!r} where {want[r]!r} is expected")


def expected_identities(n: int, pool: PoolEntry, kind: str, per_book: int | None,
                        number: int | None, book: pl.Series | None = None) -> dict[str, pl.Series]:
    """The identity columns of rows 0..n-1 as docs/pool-files.md defines them: printed games book
    `first_book + position // tickets_per_book`, ticket_no `position % tickets_per_book`, ticket
    `f"{number:03d}-{book:07d}-{ticket_no:03d}"`; eInstants serial `position + 1`, ticket
    `f"{pool_id}-{serial:07d}"`."""
    position = pl.int_range(0, n, dtype=pl.Int64, eager=True)
    if kind == "printed":  # `book`: the table's own book numbers (audit/steps/books.py); step 7 proves them
        assert per_book is not None and number is not None
        book = book if book is not None else pool.raw["first_book"] + position // per_book
        ticket_no = position % per_book
        ticket = pl.select(pl.format("{}-{}-{}", pl.lit(f"{number:03d}"), book.cast(pl.String).str.zfill(7),
                                     ticket_no.cast(pl.String).str.zfill(3))).to_series()
        return {"book": book, "ticket_no": ticket_no, "ticket": ticket}
    serial = position + 1
    ticket = pl.select(pl.format("{}-{}", pl.lit(pool.id), serial.cast(pl.String).str.zfill(7))).to_series()
    return {"serial": serial, "ticket": ticket}


def check_complete(table: pl.DataFrame, pool: PoolEntry, kind: str, per_book: int | None,
                   number: object = None) -> str:
    """(3) positions 0..N-1 in order; every ticket identity the one its position gives (docs/pool-files.md)
    and unique. `number` is the manifest's game.number (printed games' ticket ids start with it)."""
    n = table.height
    ids = ["book", "ticket_no"] if kind == "printed" else ["serial"]
    required = ("position", "ticket", "tier", "prize_cents", "salt", *ids)
    missing = [c for c in required if c not in table.columns]
    if missing:
        raise VerificationError(Step.COMPLETENESS, f"column(s) missing: {', '.join(missing)}")
    problems = []
    if tuple(table.columns) != pool.columns:
        problems.append(f"columns {list(table.columns)} are not the manifest's {list(pool.columns)}")
    if n != pool.tickets:
        problems.append(f"{n:,} rows, the manifest says {pool.tickets:,} tickets")
    nulls = [c for c in table.columns if table[c].null_count()]
    if nulls:
        problems.append(f"null values in {', '.join(nulls)}")
    for c in ("position", *ids):
        if not table.schema[c].is_integer():
            raise VerificationError(Step.COMPLETENESS, f"column {c} is {table.schema[c]}, not integers")
    position = table["position"].cast(pl.Int64).to_numpy()
    off = np.flatnonzero(position != np.arange(n))
    if off.size:
        problems.append(f"{off.size:,} row(s) not at their position (rows {_first(off)})")
    tickets = table["ticket"]
    text = tickets.dtype == pl.String
    if not text:
        problems.append(f"column ticket is {tickets.dtype}, not text")
    repeats_at = len(problems)  # where a repeat is reported, if the ids are not all as recomputed
    look_for_repeats = text
    problems.extend(_salt_problems(table["salt"]))
    computable = True
    if kind == "printed":
        assert per_book is not None  # a printed manifest states tickets_per_book (Manifest.parse)
        first, books = pool.raw["first_book"], pool.raw["books"]
        if books * per_book != pool.tickets:
            problems.append(f"{books} books of {per_book} are not {pool.tickets:,} tickets")
        if first < 0:
            problems.append(f"first_book {first} is negative")
            computable = False
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            problems.append(f"game.number {number!r} is not a game number: ticket ids cannot be recomputed")
            computable = False
        ident = f"{books} books (slots {first}..{first + books - 1}) x tickets 0..{per_book - 1}"
    else:
        ident = f"serials 1..{n:,}"
    if computable:
        book = None
        if kind == "printed":
            assert per_book is not None and isinstance(number, int)  # printed: both checked above
            book = leading_books(table["book"], per_book)
            problems.extend(book_problems(table["book"], per_book))
        want = expected_identities(n, pool, kind, per_book, number if isinstance(number, int) else None, book)
        names = {"ticket_no": "ticket number(s)", "serial": "serial(s)"}
        for c in (c for c in ids if c != "book"):
            why = _mismatch(names[c], table[c].cast(pl.Int64), want[c])
            if why:
                problems.append(why)
        if text:
            why = _mismatch("ticket id(s)", tickets, want["ticket"])
            if why:
                problems.append(why)
            else:  # every id is the one its position gives: distinct positions, distinct ids
                look_for_repeats = False
    if look_for_repeats and tickets.n_unique() != n:
        dup = tickets.filter(tickets.is_duplicated()).unique(maintain_order=True).head(SHOWN).to_list()
        problems.insert(repeats_at, f"ticket identities repeat: {', '.join(map(str, dup))}")
    if problems:
        raise VerificationError(Step.COMPLETENESS, "; ".join(problems))
    gives = "its book and ticket number give" if kind == "printed" else "its position gives"
    unit = "tickets" if kind == "printed" else "shares"  # an eInstant sells shares
    return (f"{n:,} {unit} at positions 0..{n - 1:,}; every ticket id is the one {gives} "
            f"({ident}, each once); every salt is 32 hex digits (that they are the seed's is step 7's "
            "to prove)")


SALT_SAMPLE = 1 << 16


def _salt_problems(salt: pl.Series) -> list[str]:
    """Every Merkle salt is 32 lower-case hex digits (128 bits, docs/pool-files.md), and the first
    SALT_SAMPLE are distinct: a cheap guard against a constant or short-cycle salt, which would let a
    proof's neighbouring leaves be guessed. That the salts are the seed's is step 7's to prove."""
    if salt.dtype != pl.String:
        return [f"column salt is {salt.dtype}, not text"]
    bad = np.flatnonzero(~salt.str.contains(r"^[0-9a-f]{32}$").fill_null(False).to_numpy())
    if bad.size:  # the position only: a salt is not to be quoted in reports
        return [f"{bad.size:,} salt(s) are not 32 lower-case hex digits, first at position {int(bad[0]):,}"]
    sample = salt.head(SALT_SAMPLE)
    if sample.n_unique() != sample.len():
        return [f"salts repeat among the first {sample.len():,} ({sample.len() - sample.n_unique():,} "
                "duplicate(s)): they were not drawn at random"]
    return []


def check_run_identities(manifest: Manifest) -> str:
    """(3) no ticket id in two pools. Printed pools: their book slots [first_book, first_book + books)
    are pairwise disjoint (the book numbers themselves, a secret permutation of the slots, are checked
    distinct across the run's files by audit.steps.books.check_book_numbers); an eInstant id is its pool's
    id, "-" and digits, and pool ids are distinct (manifest), so no id can be in two eInstant pools."""
    pools = manifest.pools
    if manifest.kind != "printed":
        return f"ticket ids of the {len(pools)} pool(s) are distinct: each is its own pool's id and a serial"
    spans = sorted((p.raw["first_book"], p.raw["first_book"] + p.raw["books"], p.id) for p in pools
                   if p.raw["books"] > 0)
    clashes = []
    for i, (lo, hi, pid) in enumerate(spans):
        for lo2, hi2, pid2 in spans[i + 1:]:  # sorted by first book: lo <= lo2
            if lo2 >= hi:
                break
            clashes.append(f"pools {pid} and {pid2} claim overlapping book slots ({pid}: {lo}..{hi - 1}, "
                           f"{pid2}: {lo2}..{hi2 - 1})")
    if clashes:
        more = f"; {len(clashes) - SHOWN} more overlapping pair(s)" if len(clashes) > SHOWN else ""
        raise VerificationError(Step.COMPLETENESS, "; ".join(clashes[:SHOWN]) + more)
    shown = ", ".join(f"{pid} {lo}..{hi - 1}" for lo, hi, pid in spans[:SHOWN])
    more = ", ..." if len(spans) > SHOWN else ""
    return f"book slots of the {len(pools)} pool(s) do not overlap ({shown}{more})"
