"""Step 3's book checks for printed runs, whose books are numbered by a secret permutation of the
order's book slots (docs/validation.md, section 2): the numbers cannot be recomputed from a position
without the seed (step 7 proves them), but their shape can.

- within a pool: every book's tickets are contiguous rows with ticket numbers 0 .. per_book-1 in
  order (ticket_no = position mod per_book, checked with the other identities), all rows of a book
  carry the number of its first row, and no two books of the pool share a number;
- across the run: no book number is in two pools, so no ticket id is either;
- with the spec of the run, which gives the order's book slots S: every number is one of 0 .. S-1.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest, PoolEntry
from audit.read.parquet import literal
from audit.read.runfiles import read_pool
from audit.read.specs import SpecExpectation
from audit.read.specs.printed import PrintedPools

MAX_BOOK = 10**7  # seven digits in the ticket id and the barcode


def leading_books(book: pl.Series, per_book: int) -> pl.Series:
    """Each row's book number as its book's first row states it."""
    values = book.cast(pl.Int64).to_numpy()
    rows = np.arange(len(values))
    return pl.Series("book", values[(rows // per_book) * per_book])


def book_problems(book: pl.Series, per_book: int) -> list[str]:
    """What is wrong with a pool's book column (empty if nothing)."""
    values = book.cast(pl.Int64).to_numpy()
    leaders = values[::per_book]
    problems = []
    split = np.flatnonzero(values != leading_books(book, per_book).to_numpy())
    if split.size:
        r = int(split[0])
        problems.append(f"{split.size:,} row(s) carry another book number than their book's first "
                        f"ticket, first at position {r:,}: {int(values[r])} in book "
                        f"{int(leaders[r // per_book])}")
    out = np.flatnonzero((leaders < 0) | (leaders >= MAX_BOOK))
    if out.size:
        problems.append(f"{out.size:,} book number(s) outside 0..{MAX_BOOK - 1:,}, e.g. book "
                        f"{int(leaders[out[0]])}")  # "book N": the public report withholds it
    uniq, counts = np.unique(leaders, return_counts=True)
    if (counts > 1).any():
        shared = uniq[counts > 1]
        twice = ("book " if shared.size == 1 else "books ") + ", ".join(str(int(b)) for b in shared[:3])
        problems.append(f"{shared.size:,} book number(s) used by two books of the pool: {twice}")
    return problems


def spec_slots(spec: SpecExpectation | None, manifest: Manifest) -> int | None:
    """The order's book slots S the spec of the run gives (its pools' largest first_book + books: a run
    may hold some of the order's pools), or None without it (another spec is step 5's)."""
    if spec is None or spec.sha256 != manifest.doc.get("spec", {}).get("sha256"):
        return None
    pools = [c for c in spec.claims if isinstance(c, PrintedPools)]
    return max(p["first_book"] + p["books"] for p in pools[0].pools) if pools and pools[0].pools else None


def check_book_numbers(folder: Path, pools: Sequence[PoolEntry], per_book: int,
                       slots: int | None = None) -> str:
    """No book number in two pools of the run (pools whose file cannot be read are steps 2 and 3's) and,
    given the order's book slots S (`spec_slots`), none outside 0 .. S-1."""
    seen: dict[int, str] = {}
    clashes = []
    read = 0
    for pool in pools:
        try:
            book = read_pool(Path(folder), pool.file, columns=["book"])["book"]
        except Exception:
            continue
        read += 1
        for b in np.unique(book.cast(pl.Int64).to_numpy()).tolist():
            if b in seen:
                clashes.append(f"book {b} is in pools {seen[b]} and {pool.id}")
            else:
                seen[b] = pool.id
    if clashes:
        raise VerificationError(Step.COMPLETENESS,
                                f"{len(clashes):,} book number(s) in two pools, so their ticket ids "
                                f"repeat: {'; '.join(clashes[:3])}")
    outside = [b for b in seen if slots is not None and not 0 <= b < slots]
    if outside and slots is not None:
        raise VerificationError(Step.COMPLETENESS, f"{len(outside):,} book number(s) not one of the order's "
                                f"{slots:,} book slots 0..{slots - 1:,} the spec gives (docs/validation.md, "
                                "section 2: the numbers are a permutation of them)")
    within = f", each one of the order's {slots:,} book slots" if slots is not None else ""
    return f"{len(seen):,} book numbers of {read} pool file(s) are distinct across the run{within}"


BOOK_KEY_LABEL = b"poolgen/books/v1"
KEY_CHECK = b"poolgen/validation/v1/key-check"  # the check value of a key made like a validation key


def keyed_numbers(key: bytes, rules: str, slots: int) -> np.ndarray:
    """docs/validation.md: slot s is printed as the rank of HMAC-SHA256(key, "poolgen/books/v1" ||
    lp(rules) || u64(s)) among the slots' tags."""
    prefix = BOOK_KEY_LABEL + len(rules.encode()).to_bytes(8, "big") + rules.encode()
    tags = [hmac.new(key, prefix + s.to_bytes(8, "big"), hashlib.sha256).digest() for s in range(slots)]
    numbers = np.empty(slots, dtype=np.int64)
    for rank, s in enumerate(sorted(range(slots), key=lambda s: (tags[s], s))):
        numbers[s] = rank
    return numbers


def check_book_key(folder: Path, pools: Sequence[PoolEntry], per_book: int, printed: dict[str, object],
                   rules: str, key: bytes | None) -> str:
    """(3) a run numbered under a book key: every book number is a slot's (0 .. S-1, a bijection with
    the distinctness above); given the key, each is the one the key gives its slot."""
    slots = printed.get("book_slots")
    if not isinstance(slots, int) or isinstance(slots, bool) or not 0 < slots <= MAX_BOOK:
        raise VerificationError(Step.COMPLETENESS, "print.book_slots: missing or not a count of book slots")
    numbers = keyed_numbers(key, rules, slots) if key is not None else None
    if key is not None and hmac.digest(key, KEY_CHECK, "sha256")[:8].hex() != printed.get("book_key_check"):
        raise VerificationError(Step.COMPLETENESS, f"the book key given is not the run's (key check "
                                f"{printed.get('book_key_check')})")
    for pool in pools:
        column = pl.read_parquet(literal(Path(folder) / pool.file), columns=["book"], glob=False)["book"]
        book = column.cast(pl.Int64).to_numpy()
        leaders = book[::per_book]
        if leaders.size and (leaders.min() < 0 or leaders.max() >= slots):
            raise VerificationError(Step.COMPLETENESS, f"pool {pool.id}: a book number outside the order's "
                                    f"{slots:,} slots")
        if numbers is not None:
            first = int(pool.raw.get("first_book") or 0)
            want = numbers[first:first + leaders.size]
            wrong = np.flatnonzero(leaders != want)
            if wrong.size:
                b = int(wrong[0])
                raise VerificationError(Step.COMPLETENESS, f"pool {pool.id}: book slot {first + b} is "
                                        f"printed as book {int(leaders[b])}, the book key gives "
                                        f"{int(want[b])}")
    if numbers is None:
        return (f"book numbers are under a book key: each is one of the order's {slots:,} slots (give "
                "--book-key to check the permutation)")
    return f"book numbers are the book key's permutation of the order's {slots:,} slots"
