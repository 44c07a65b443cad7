"""Step 3 of the checklist (audit/verify.py): every pool complete, every ticket identity the one its
position (and, for printed games, its book) gives, salts well formed, no ticket id in two pools."""

from __future__ import annotations

import numpy as np
import polars as pl

from audit.checklist import SHOWN, Step
from audit.errors import VerificationError
from audit.read.game_number import is_game_number
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


def _expected_numbers(n: int, pool: PoolEntry, kind: str, per_book: int | None,
                      book: pl.Series | None) -> dict[str, pl.Series]:
    """expected_identities without the ticket ids: book and ticket_no (printed), or serial."""
    position = pl.int_range(0, n, dtype=pl.Int64, eager=True)
    if kind == "printed":
        assert per_book is not None
        book = book if book is not None else pool.raw["first_book"] + position // per_book
        return {"book": book, "ticket_no": position % per_book}
    return {"serial": position + 1}


def _expected_tickets(pool: PoolEntry, kind: str, number: int | None,
                      numbers: dict[str, pl.Series]) -> pl.Series:
    """The ticket ids expected_identities gives, from its numbers."""
    if kind == "printed":
        assert number is not None
        return pl.select(pl.format("{}-{}-{}", pl.lit(f"{number:03d}"),
                                   numbers["book"].cast(pl.String).str.zfill(7),
                                   numbers["ticket_no"].cast(pl.String).str.zfill(3))).to_series()
    return pl.select(pl.format("{}-{}", pl.lit(pool.id),
                               numbers["serial"].cast(pl.String).str.zfill(7))).to_series()


def expected_identities(n: int, pool: PoolEntry, kind: str, per_book: int | None,
                        number: int | None, book: pl.Series | None = None) -> dict[str, pl.Series]:
    """The identity columns of rows 0..n-1 as docs/pool-files.md defines them: printed games book
    `first_book + position // tickets_per_book`, ticket_no `position % tickets_per_book`, ticket
    `f"{number:03d}-{book:07d}-{ticket_no:03d}"` (a game numbered 1000..9999: its four digits);
    eInstants serial `position + 1`, ticket `f"{pool_id}-{serial:07d}"`."""
    if kind == "printed":  # `book`: the table's own book numbers (audit/steps/books.py); step 7 proves them
        assert per_book is not None and number is not None
    numbers = _expected_numbers(n, pool, kind, per_book, book)
    return {**numbers, "ticket": _expected_tickets(pool, kind, number, numbers)}


_DASH = np.frombuffer(b"-", np.uint8)[None]
_LUT3 = np.array([list(f"{v:03d}".encode()) for v in range(1000)], dtype=np.uint8)  # 000..999 as ASCII


def _digits(values: np.ndarray, width: int) -> np.ndarray | None:
    """(len(values), width) ASCII digits of each value, zero-padded to `width` as f"{v:0{width}d}" writes
    it; None if a value is outside 0 .. 10**width - 1 (negative, or more digits than `width`)."""
    if len(values) and (int(values.min()) < 0 or int(values.max()) >= 10**width):
        return None
    out = np.empty((len(values), width), np.uint8)
    rest = values.astype(np.int64)
    for end in range(width, 0, -3):  # three digits at a time, from the right
        start = max(0, end - 3)
        out[:, start:end] = _LUT3[rest % 1000][:, 3 - (end - start):]
        rest = rest // 1000
    return out


def _counting(first: int, n: int, width: int) -> np.ndarray | None:
    """_digits of first, first + 1, ..., first + n - 1: each thousand's leading digits once, the last
    three digits 000..999 tiled under them."""
    if width <= 3 or n == 0:
        return _digits(np.arange(first, first + n), width)
    if first < 0 or first + n - 1 >= 10**width:
        return None
    lo, hi = first // 1000, (first + n - 1) // 1000 + 1  # the thousands the numbers fall in
    high = _digits(np.arange(lo, hi), width - 3)
    assert high is not None
    block = np.empty((hi - lo, 1000, width), np.uint8)
    block[:, :, :width - 3] = high[:, None, :]
    block[:, :, width - 3:] = _LUT3[None]
    skip = first - 1000 * lo
    return block.reshape(-1, width)[skip:skip + n]


def _ids_as_given(tickets: pl.Series, pool: PoolEntry, kind: str, per_book: int | None, number: int | None,
                  numbers: dict[str, pl.Series]) -> bool:
    """True only if every ticket id is, byte for byte, the one expected_identities gives: the ids are
    compared as one fixed-width byte matrix with the expected digits, without making the strings.
    False when they differ, or are not all of the one width the expected ids have (ids of more
    digits): then they are compared string by string."""
    n = len(tickets)
    if not n or tickets.null_count():
        return False
    if kind == "printed":
        if per_book is None or per_book < 1:
            return False
        book = numbers["book"].cast(pl.Int64).to_numpy()
        leaders = book[::per_book]
        g = 4 if number is not None and number >= 1000 else 3  # GGG, or GGGG for 1000..9999
        parts = [_digits(np.array([number if number is not None else -1]), g), _digits(leaders, 7),
                 _digits(np.arange(per_book), 3)]
        if any(p is None for p in parts) or not np.array_equal(np.repeat(leaders, per_book)[:n], book):
            return False
        head, books, numbered = parts  # the game number, each book's, each ticket number's digits
        assert head is not None and books is not None and numbered is not None
        width, dash = g + 12, _DASH
        expected = [(0, head), (g, dash), (g + 1, np.repeat(books, per_book, axis=0)[:n]), (g + 8, dash),
                    (g + 9, np.tile(numbered, (-(-n // per_book), 1))[:n])]
    else:
        prefix = np.frombuffer(f"{pool.id}-".encode(), np.uint8)[None]
        serials = _counting(1, n, 7)
        if serials is None:
            return False
        width = prefix.shape[1] + 7
        expected = [(0, prefix), (prefix.shape[1], serials)]
    lengths = tickets.str.len_bytes()
    if lengths.min() != width or lengths.max() != width:
        return False
    ids = np.frombuffer(tickets.str.join("").cast(pl.Binary).item(), np.uint8).reshape(n, width)
    return all(bool((ids[:, at:at + part.shape[1]] == part).all()) for at, part in expected)


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
        if not is_game_number(number):
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
        given = number if isinstance(number, int) else None
        want = _expected_numbers(n, pool, kind, per_book, book)
        names = {"ticket_no": "ticket number(s)", "serial": "serial(s)"}
        for c in (c for c in ids if c != "book"):
            why = _mismatch(names[c], table[c].cast(pl.Int64), want[c])
            if why:
                problems.append(why)
        if text:
            why = None if _ids_as_given(tickets, pool, kind, per_book, given, want) else \
                _mismatch("ticket id(s)", tickets, _expected_tickets(pool, kind, given, want))
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
    bad = np.flatnonzero(~salt.str.contains(r"^[0-9a-f]{32}$").fill_null(False).to_numpy()) \
        if not _hex_salts(salt) else np.empty(0, np.intp)
    if bad.size:  # the position only: a salt is not to be quoted in reports
        return [f"{bad.size:,} salt(s) are not 32 lower-case hex digits, first at position {int(bad[0]):,}"]
    sample = salt.head(SALT_SAMPLE)
    if sample.n_unique() != sample.len():
        return [f"salts repeat among the first {sample.len():,} ({sample.len() - sample.n_unique():,} "
                "duplicate(s)): they were not drawn at random"]
    return []


def _hex_salts(salt: pl.Series) -> bool:
    """True only if every salt is 32 bytes, each a lower-case hex digit (what the pattern of _salt_problems
    accepts), checked on the column's bytes at once; False: the pattern finds which are not."""
    if not len(salt) or salt.null_count():
        return False
    lengths = salt.str.len_bytes()
    if lengths.min() != 32 or lengths.max() != 32:
        return False
    data = np.frombuffer(salt.str.join("").cast(pl.Binary).item(), np.uint8)
    # a block at a time, its temporaries in the cache: a sixth of the CPU of whole-column passes
    for start in range(0, data.size, HEX_BLOCK):
        block = data[start:start + HEX_BLOCK]
        if not (((block - np.uint8(48)) < 10) | ((block - np.uint8(97)) < 6)).all():  # 0-9, a-f
            return False
    return True


HEX_BLOCK = 1 << 18


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
