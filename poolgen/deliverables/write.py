"""Writing a printed run's deliverables into the staged run folder (docs/validation.md):

- `write_imaging(game, pool, df, seed, folder)`: the pool's imaging file (mode 0600), right after its
  pool file, from the same table;
- `write_run_files(game, folder, run_id, pool_ids, keys)`: the pack list (no outcome) and, given
  the two validation keys, the low- and high-tier validation files (mode 0600);
- `manifest_part(...)`: the manifest's `deliverables` (every file with its role and hash) and
  `print` entries.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import polars as pl

from poolgen.deliverables.identity import BARCODE_DIGITS, book_label
from poolgen.deliverables.imaging import imaging_table
from poolgen.deliverables.validation import TIERS, file_bytes, key_check
from poolgen.errors import RunError
from poolgen.files.read import file_entry
from poolgen.files.write import create_secret_file, write_atomic, write_secret_bytes
from poolgen.game.model import FixedPrize, Game, Pool, Printed
from poolgen.game.packs import manifest_packs
from poolgen.rng.drbg import label_text
from poolgen.rng.labels import stream_label

COMMON = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")
PACKS = "packs.csv"
BARCODE = ("GGG BBBBBBB TTT CC: game, book, ticket and two check digits, ISO/IEC 7064 MOD 97-10 "
           "(the 15-digit number is 1 mod 97)")


def imaging_name(pool_id: str) -> str:
    return f"imaging-{pool_id}.parquet"


def write_imaging(game: Game, pool: Pool, df: pl.DataFrame, seed: bytes, folder: Path) -> bool:
    """Write the pool's imaging file; False if its layout cannot be mapped to symbols."""
    if not isinstance(game.sales, Printed):
        return False
    table = imaging_table(game, pool, df, seed, game.sales.virn_digits,
                          [c for c in df.columns if c not in COMMON])
    if table is None:
        return False
    with create_secret_file(folder / imaging_name(pool.id)) as f:
        table.write_parquet(f, compression="zstd", compression_level=1, statistics=False)
        f.flush()
        os.fsync(f.fileno())
    return True


def free_ticket_tiers(game: Game) -> list[str]:
    """The ids of the tiers whose prize is a free ticket, in the spec's order (the manifest's
    `print.free_ticket_tiers`; their validation records carry FREE)."""
    return [t.id for t in game.tiers if isinstance(t.prize, FixedPrize) and t.prize.free]


def write_run_files(game: Game, folder: Path, run_id: str, pool_ids: list[str],
                    keys: tuple[bytes, bytes] | None, high_tier_cents: int | None = None) -> None:
    """The pack list, and with `keys` (low, high) the two validation files."""
    if not isinstance(game.sales, Printed):
        return
    per_book = game.sales.tickets_per_book
    books = pl.concat([pl.read_parquet(folder / f"pool-{pid}.parquet", columns=["book"])["book"]
                       .unique() for pid in pool_ids]).sort()
    packs = pl.DataFrame({"book": books}).with_columns(
        pl.lit(f"{game.number:03d}").alias("game"), pl.lit(0).alias("first_ticket"),
        pl.lit(per_book - 1).alias("last_ticket"), pl.lit(per_book).alias("tickets"))
    buf = io.BytesIO()
    packs.select("game", "book", "first_ticket", "last_ticket", "tickets").write_csv(buf)
    write_atomic(folder / PACKS, buf.getvalue())  # no outcome, no pool: 0644
    if keys is None:
        return
    threshold = high_tier_cents or game.sales.high_tier_cents
    free_tiers = free_ticket_tiers(game)
    codes, virns, prizes, free = [], [], [], []
    for pid in pool_ids:
        if not (folder / imaging_name(pid)).exists():
            raise RunError(f"pool {pid}: no imaging file (its layout is not mapped), so no validation "
                           "numbers to build validation files from")
        im = pl.read_parquet(folder / imaging_name(pid), columns=["barcode", "virn"])
        codes += im["barcode"].to_list()
        virns += im["virn"].to_list()
        pool = pl.read_parquet(folder / f"pool-{pid}.parquet", columns=["prize_cents", "tier"])
        prizes += pool["prize_cents"].to_list()
        free += pool["tier"].is_in(free_tiers).to_list()
    number = game.number
    assert number is not None  # a printed game's number is required (poolgen/loader/printed.py)
    for (tier, name), key in zip(TIERS.items(), keys, strict=True):
        write_secret_bytes(folder / name, file_bytes(tier, key, run_id, number, threshold,
                                                     codes, virns, prizes, free))


def manifest_part(game: Game, folder: Path, pool_ids: list[str], keys: tuple[bytes, bytes] | None,
                  high_tier_cents: int | None = None, book_key: bytes | None = None) -> dict[str, Any]:
    """The manifest's `deliverables` list (every file but the manifest and its signature, with role,
    pool where it has one, and hash) and, for printed runs, its `print` entry."""
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
    if isinstance(game.sales, Printed):
        part["print"] = {"barcode": BARCODE, "barcode_digits": BARCODE_DIGITS,
                         "virn_digits": game.sales.virn_digits,
                         "high_tier_cents": high_tier_cents or game.sales.high_tier_cents,
                         "free_ticket_tiers": free_ticket_tiers(game),
                         "packs": manifest_packs(game.packs),  # the rules audit holds every pack to
                         "book_numbers": "a permutation of the order's book slots from the stream "
                                         + label_text(book_label(game.id))}
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
