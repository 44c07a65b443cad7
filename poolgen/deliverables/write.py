"""Writing a printed run's deliverables into the staged run folder (docs/validation.md):

- `write_imaging(game, pool, df, seed, folder, validation)`: in the pool's own worker, right after its
  pool file and from the same table: the pool's imaging file (mode 0600), and what the run's files
  need of the pool (`PoolParts`: its book numbers and, given the validation keys, each tier's records
  and known values, already sorted);
- `write_run_files(game, folder, run_id, pool_ids, parts, keys)`: once every pool is done, the pack
  list (no outcome) and, given the two validation keys, the low- and high-tier validation files
  (mode 0600), each the pools' sorted parts merged;
- `manifest_part(...)`: the manifest's `deliverables` (every file with its role and hash) and
  `print` entries.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from polars.io.plugins import register_io_source

from poolgen.deliverables.identity import barcode_digits, book_label, game_text
from poolgen.deliverables.imaging import art_spots, identity_numbers, imaging_table
from poolgen.deliverables.validation import (
    TIERS,
    file_head,
    file_keys,
    key_check,
    knowns,
    records,
    sorted_rows,
    ticket_blocks,
    tier_values,
)
from poolgen.errors import RunError
from poolgen.files.read import file_entry
from poolgen.files.write import secret_output, write_atomic
from poolgen.game.model import FixedPrize, Game, Pool, Printed
from poolgen.game.packs import manifest_packs
from poolgen.rng.drbg import label_text
from poolgen.rng.labels import stream_label

COMMON = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")
WHOLE_TEXT_BYTES = 256 << 20  # an imaging table held whole at most (issue 28: 1,010,300 x 30 spots, 1.4 GB)
SLICE_ROWS = 65_536  # rows of an imaging table built at a time when it is not held whole
PACKS = "packs.csv"
BARCODE = ("GGG BBBBBBB TTT CC: game, book, ticket and two check digits, ISO/IEC 7064 MOD 97-10 "
           "(the 15-digit number is 1 mod 97)")


def barcode_rule(game: int) -> str:
    """The manifest's `print.barcode` for a game: `BARCODE`, or for a game numbered 1000..9999 its
    16-digit form `GGGG BBBBBBB TTT CC` (docs/validation.md, section 2)."""
    if barcode_digits(game) == 15:
        return BARCODE
    return BARCODE.replace("GGG ", "GGGG ", 1).replace("15-digit", f"{barcode_digits(game)}-digit")


@dataclass(frozen=True)
class ValidationJob:
    """What a pool's worker needs to make its share of the validation files."""

    keys: tuple[bytes, bytes] = field(repr=False)  # (low, high)
    run_id: str
    high_tier_cents: int
    free_tiers: tuple[str, ...] = ()  # the tiers whose prize is a free ticket (`free_ticket_tiers`)


@dataclass(frozen=True)
class PoolParts:
    """One printed pool's share of the run's files: its distinct book numbers and, with validation
    keys, per tier its records (n x 32 bytes) and known values (n x 16), each sorted by their bytes."""

    books: np.ndarray
    validation: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)


def imaging_name(pool_id: str) -> str:
    return f"imaging-{pool_id}.parquet"


def write_imaging(game: Game, pool: Pool, df: pl.DataFrame, seed: bytes, folder: Path,
                  validation: ValidationJob | None = None) -> PoolParts | None:
    """Write the pool's imaging file and return the pool's parts of the run's files; None if the game
    is not printed or its layout cannot be mapped to symbols (then there is no imaging file)."""
    if not isinstance(game.sales, Printed):
        return None
    digits = game.sales.virn_digits
    numbers = identity_numbers(game, pool, df, seed, digits)
    layout = [c for c in df.columns if c not in COMMON]
    # a table of more text than WHOLE_TEXT_BYTES is built a slice of rows at a time and streamed to
    # the file by polars' sink (the same bytes: polars cuts row groups by height, not by slice); a
    # smaller one whole, as it costs no more memory than the pool
    text_bytes = 16 * df.height * (2 + 3 * len(layout))  # polars' string views: 16 bytes a value
    sliced = text_bytes > WHOLE_TEXT_BYTES and df.height > SLICE_ROWS
    table = imaging_table(game, pool, df, numbers, digits, layout, (0, SLICE_ROWS) if sliced else None)
    if table is None:
        return None
    with secret_output(folder / imaging_name(pool.id), "the imaging file") as f:
        if not sliced:
            table.write_parquet(f, compression="zstd", compression_level=1, statistics=False)
        else:
            first_slice = [table]
            del table  # one slice's text columns in memory at a time

            def slices(*_: object) -> Iterator[pl.DataFrame]:  # polars' io source: every column, every row
                yield first_slice.pop()
                for first in range(SLICE_ROWS, df.height, SLICE_ROWS):
                    part = imaging_table(game, pool, df, numbers, digits, layout,
                                         (first, min(SLICE_ROWS, df.height - first)))
                    assert part is not None  # the layout was mapped above
                    yield part

            register_io_source(slices, schema=first_slice[0].schema).sink_parquet(
                f, compression="zstd", compression_level=1, statistics=False)
    parts = PoolParts(np.unique(df["book"].to_numpy()))
    if validation is not None:
        blocks = ticket_blocks(numbers[0], numbers[1], digits)
        prizes = df["prize_cents"].to_numpy()
        free = df["tier"].is_in(list(validation.free_tiers)).to_numpy()
        for (tier, _), key in zip(TIERS.items(), validation.keys, strict=True):
            keys = file_keys(key, validation.run_id)
            held = tier_values(tier, prizes, free, validation.high_tier_cents)
            parts.validation[tier] = (
                sorted_rows(records(keys, blocks, held)),
                sorted_rows(knowns(keys, numbers[0])))
    return parts


def free_ticket_tiers(game: Game) -> list[str]:
    """The ids of the tiers whose prize is a free ticket, in the spec's order (the manifest's
    `print.free_ticket_tiers`; their validation records carry FREE)."""
    return [t.id for t in game.tiers if isinstance(t.prize, FixedPrize) and t.prize.free]


def write_run_files(game: Game, folder: Path, run_id: str, pool_ids: list[str],
                    parts: dict[str, PoolParts | None], keys: tuple[bytes, bytes] | None,
                    high_tier_cents: int | None = None) -> None:
    """The pack list, and with `keys` (low, high) the two validation files, from the pools' parts."""
    if not isinstance(game.sales, Printed):
        return
    per_book = game.sales.tickets_per_book
    number = game.number
    assert number is not None  # a printed game's number is required (poolgen/loader/printed.py)
    books = np.unique(np.concatenate([p.books for p in parts.values() if p is not None]
                                     or [np.zeros(0, dtype=np.uint32)]))
    if game.sales.split is not None:  # its pools hold different counts: the list names none of them
        slots = max((p.first_book or 0) + (p.books or 0) for p in game.pools)
        books = np.arange(slots, dtype=np.uint32)  # every book number of the order (docs/validation.md 4)
    packs = pl.DataFrame({"book": books}).with_columns(
        pl.lit(game_text(number)).alias("game"), pl.lit(0).alias("first_ticket"),
        pl.lit(per_book - 1).alias("last_ticket"), pl.lit(per_book).alias("tickets"))
    buf = io.BytesIO()
    packs.select("game", "book", "first_ticket", "last_ticket", "tickets").write_csv(buf)
    write_atomic(folder / PACKS, buf.getvalue())  # no outcome, no pool: 0644
    if keys is None:
        return
    threshold = high_tier_cents or game.sales.high_tier_cents
    shares = []
    for pid in pool_ids:
        part = parts.get(pid)
        if part is None or not part.validation:
            raise RunError(f"pool {pid}: no imaging file (its layout is not mapped), so no validation "
                           "numbers to build validation files from")
        shares.append(part.validation)
    for (tier, name), key in zip(TIERS.items(), keys, strict=True):
        recs = sorted_rows(np.concatenate([share[tier][0] for share in shares]), runs=True)
        known = sorted_rows(np.concatenate([share[tier][1] for share in shares]), runs=True)
        _write_secret_pieces(folder / name, file_head(tier, key, run_id, number, threshold, len(recs)),
                             recs, known)


def _write_secret_pieces(path: Path, *pieces: bytes | np.ndarray) -> None:
    """A new outcome-holding file (mode 0600) of several pieces, written without joining them."""
    with secret_output(path, "the validation file") as f:
        for piece in pieces:
            f.write(np.ascontiguousarray(piece).data if isinstance(piece, np.ndarray) else piece)


def manifest_part(game: Game, folder: Path, pool_ids: list[str], keys: tuple[bytes, bytes] | None,
                  high_tier_cents: int | None = None, book_key: bytes | None = None) -> dict[str, Any]:
    """The manifest's `deliverables` list (every file but the manifest and its signature, with role,
    pool where it has one, and hash), for printed runs its `print` entry, for eInstants its `blocks`."""
    files = []
    for pid in pool_ids:
        # a pool file's size and hash are its pool entry's `file`: stated once, checked once (step 2)
        files.append({"role": "pool", "pool": pid, "name": f"pool-{pid}.parquet"})
        if (folder / imaging_name(pid)).exists():
            files.append({"role": "imaging", "pool": pid, **file_entry(folder / imaging_name(pid))})
    if (folder / PACKS).exists():
        files.append({"role": "packs", **file_entry(folder / PACKS)})
    if keys is not None:
        for (tier, name), key in zip(TIERS.items(), keys, strict=True):
            files.append({"role": "validation" if tier == "low" else "validation-high", "tier": tier,
                          "key_check": key_check(key), **file_entry(folder / name)})
    part: dict[str, Any] = {"deliverables": files}
    if game.packs.einstant:  # an eInstant's [blocks] (or its default neighbour rule): what audit holds it to
        part["blocks"] = manifest_packs(game.packs)
    if isinstance(game.sales, Printed):
        assert game.number is not None  # a printed game's number is required (poolgen/loader/printed.py)
        part["print"] = {"barcode": barcode_rule(game.number), "barcode_digits": barcode_digits(game.number),
                         "virn_digits": game.sales.virn_digits,
                         "high_tier_cents": high_tier_cents or game.sales.high_tier_cents,
                         "free_ticket_tiers": free_ticket_tiers(game),
                         "packs": manifest_packs(game.packs),  # the rules audit holds every pack to
                         "book_numbers": "a permutation of the order's book slots from the stream "
                                         + label_text(book_label(game.id))}
        if art := art_spots(game):  # the printer's art files of the spots' symbols (docs/validation.md)
            part["print"]["art"] = art
        if book_key is not None:  # the permutation is the book key's (docs/validation.md)
            part["print"]["book_numbers"] = ("a permutation of the order's book slots under a book key: slot "
                                             "s is the rank of HMAC-SHA256(key, \"poolgen/books/v1\" || "
                                             "lp(rules) || u64(s)) among the slots' tags")
            part["print"]["book_key_check"] = key_check(book_key)
            part["print"]["book_slots"] = max((p.first_book or 0) + (p.books or 0) for p in game.pools)
    return part


def extra_streams(game: Game, pool_ids: list[str], keyed_books: bool = False) -> list[str]:
    """The labels of the deliverables' streams, as the manifest lists them (no book stream when a book
    key numbers the books)."""
    if not isinstance(game.sales, Printed):
        return []
    books = [] if keyed_books else [label_text(book_label(game.id))]
    return books + [label_text(stream_label(game.id, pid, "virn")) for pid in pool_ids]
