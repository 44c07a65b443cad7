"""Building one pool: exact tier counts, shuffled by the pool's order stream, then laid out.

Pool order: the multiset of tier indices (tier 0 = losers, `count` copies of each tier) in tier
order, permuted by `permutation(order_stream, tickets)`: ticket at position p gets
`base[perm[p]]`. Position p is the ticket's place in the pool: for printed games book slot
`first_book + p // tickets_per_book`, printed as the book number the order's secret book
permutation gives that slot (poolgen/deliverables/identity.py), ticket `p % tickets_per_book`; for
eInstants serial p + 1. A printed game's pack parameters and an eInstant's block parameters
(poolgen/run/packs/) replace the shuffle when they constrain the order, and the neighbour rule (every
printed game's and every eInstant's unless its spec turns it off) lays out again any run of tickets
holding identical neighbours.
Ticket p's Merkle salt is bytes 16p .. 16p + 15 of the pool's salt stream, in hex
(docs/pool-files.md).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import polars as pl

from poolgen.deliverables.identity import book_numbers, keyed_book_numbers
from poolgen.game.model import Game, Pool, Printed
from poolgen.rng import derive_stream, permutation
from poolgen.rng.labels import stream_label
from poolgen.run.packs import NoArrangement, arrange, refusal, rules_for, separate_neighbours

PURPOSES = ("order", "layout", "salt")
SALT_BYTES = 16


def tier_base(pool: Pool) -> np.ndarray:
    """Every ticket's tier index in tier order, before shuffling."""
    counts = [t.count for t in pool.tiers]
    return np.repeat(np.arange(len(counts), dtype=np.int16), counts)


def shuffled_tiers(game: Game, pool: Pool, seed: bytes) -> np.ndarray:
    """The pool's tier indices in pool order: exact counts, uniformly shuffled, or under pack
    parameters drawn as docs/randomness.md section 5 says (poolgen/run/packs/)."""
    stream = derive_stream(seed, *stream_label(game.id, pool.id, "order"))
    rules = rules_for(game, pool)
    if rules is not None:
        try:
            return arrange(stream, rules)
        except NoArrangement as exc:  # a spec check refuses too: one line, not a traceback
            raise refusal(game, pool, exc) from None
    tiers: np.ndarray = tier_base(pool)[permutation(stream, pool.tickets)]
    return tiers


def order_book_slots(game: Game) -> int:
    """The number of book slots of the order: every pool's books, numbered together."""
    return max((p.first_book or 0) + (p.books or 0) for p in game.pools)


def identity_columns(game: Game, pool: Pool, seed: bytes,
                     book_key: bytes | None = None) -> dict[str, pl.Series]:
    """Position and ticket identity of every place in the pool (book numbers under `book_key`, if
    given, else from the seed)."""
    n = pool.tickets
    position = pl.Series("position", np.arange(n, dtype=np.uint32))
    if isinstance(game.sales, Printed):
        per_book = game.sales.tickets_per_book
        slots = order_book_slots(game)
        numbers = (keyed_book_numbers(book_key, game.id, slots) if book_key is not None
                   else book_numbers(seed, game.id, slots))
        book = pl.Series("book", numbers[(pool.first_book or 0) + np.arange(n) // per_book])
        ticket_no = pl.Series("ticket_no", (np.arange(n) % per_book).astype(np.uint16))
        ticket = _ticket_ids(f"{game.number:03d}-", book, "-", ticket_no)
        return {"position": position, "ticket": ticket, "book": book, "ticket_no": ticket_no}
    serial = pl.Series("serial", np.arange(1, n + 1, dtype=np.uint32))
    ticket = _ticket_ids(f"{pool.id}-", serial)
    return {"position": position, "ticket": ticket, "serial": serial}


def _ticket_ids(head: str, first: pl.Series, sep: str = "", second: pl.Series | None = None) -> pl.Series:
    """The `ticket` column: head + `first` zero-filled to 7 digits (+ sep + `second` to 3 digits).

    Made as a fixed-width byte matrix (each digit column from a table of '0'..'9') when every number
    fits its width; otherwise (a zero fill does not cut a longer number) by polars' format, as before."""
    parts = [(first, 7)] + ([(second, 3)] if second is not None else [])
    n = first.len()
    numbers = [(s.to_numpy(), w) for s, w in parts]
    if head.isascii() and sep.isascii() and all(v.size == 0 or int(v.max()) < 10 ** w for v, w in numbers):
        pieces: list[np.ndarray | bytes] = [head.encode()]
        for i, (v, w) in enumerate(numbers):
            if i:
                pieces.append(sep.encode())
            pieces.append(_digit_matrix(v, w))
        width = sum(len(x) if isinstance(x, bytes) else x.shape[1] for x in pieces)
        out = np.empty((n, width), dtype=np.uint8)
        at = 0
        for x in pieces:
            size = len(x) if isinstance(x, bytes) else x.shape[1]
            out[:, at:at + size] = np.frombuffer(x, dtype=np.uint8) if isinstance(x, bytes) else x
            at += size
        return pl.Series("ticket", out.reshape(-1).view(f"S{width}")).cast(pl.String)
    strings = [s.cast(pl.String).str.zfill(w) for s, w in parts]
    pattern = "{}" + sep.join(["{}"] * len(strings))
    return pl.select(pl.format(pattern, pl.lit(head), *strings)).to_series().rename("ticket")


def _digit_matrix(values: np.ndarray, width: int) -> np.ndarray:
    """The decimal digits of every value (each below 10 ** width) as ASCII, one row per value."""
    out = np.empty((values.size, width), dtype=np.uint8)
    rest = values.astype(np.uint32)
    for col in range(width - 1, -1, -1):
        out[:, col] = rest % 10 + 48
        rest //= 10
    return out


def salt_column(game: Game, pool: Pool, seed: bytes) -> pl.Series:
    """Every ticket's Merkle salt: 32 lower-case hex digits from the pool's salt stream."""
    stream = derive_stream(seed, *stream_label(game.id, pool.id, "salt"))
    digits = stream.read(SALT_BYTES * pool.tickets).hex().encode("ascii")
    return pl.Series("salt", np.frombuffer(digits, dtype=f"S{2 * SALT_BYTES}")).cast(pl.String)


def build_pool(game: Game, pool: Pool, seed: bytes, book_key: bytes | None = None) -> pl.DataFrame:
    """The pool's full table: identity, tier, prize and layout columns, in pool order."""
    return build_pool_counted(game, pool, seed, book_key)[0]


def build_pool_counted(game: Game, pool: Pool, seed: bytes,
                       book_key: bytes | None = None) -> tuple[pl.DataFrame, list[int]]:
    """`build_pool`, and the number of tickets of each of the pool's tiers in its table (in tier
    order), counted from the tier indices the `tier` column is made of: no pass over its text.

    The identity, tier, prize and salt columns are made on a thread while this one lays the tickets
    out: both are mostly numpy, polars and OpenSSL work, which run without the GIL."""
    tiers = shuffled_tiers(game, pool, seed)
    with ThreadPoolExecutor(max_workers=1) as worker:
        common = worker.submit(_common_columns, game, pool, seed, tiers, book_key)
        stream = derive_stream(seed, *stream_label(game.id, pool.id, "layout"))
        layout = game.play.lay_out(game, pool, tiers, stream)
        columns = common.result()
        for name in layout:
            if name in columns:
                raise ValueError(f"layout column {name!r} clashes with a pool column")
        layout = separate_neighbours(game, pool, tiers, layout, stream)
    for name, values in layout.items():
        columns[name] = pl.Series(name, values)
    counts = np.bincount(tiers, minlength=len(pool.tiers)).tolist()
    return pl.DataFrame(list(columns.values())), counts


def _common_columns(game: Game, pool: Pool, seed: bytes, tiers: np.ndarray,
                    book_key: bytes | None) -> dict[str, pl.Series]:
    """Every column but the layout's: identity, tier, prize and salt."""
    ids = np.array([t.id for t in pool.tiers])
    prizes = np.array([t.prize_cents for t in pool.tiers], dtype=np.int64)
    columns = identity_columns(game, pool, seed, book_key)
    columns["tier"] = pl.Series("tier", ids, dtype=pl.String)[tiers]
    columns["prize_cents"] = pl.Series("prize_cents", prizes[tiers])
    columns["salt"] = salt_column(game, pool, seed)
    return columns
