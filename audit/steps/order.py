"""Step 7 without a generator (`python -m audit verify --seed-file`): every pool's Merkle salts and,
where no pack or block parameter constrains it, its tier order, re-derived from the seed, written from
docs/randomness.md (sections 2 to 4) alone.

Without it an insider holding the signing key could move tickets within a pool (swap two tickets'
whole rows, layouts and salts with them; move a top prize into another book, imaging and validation
files restated) or choose the salts (guessable ones let a proof's neighbouring leaves be inverted), and
pass every step of audit alone, seed given: steps 3 to 6 hold each row to itself, and step 8 cannot see
a handful of moved tickets.

    salt of ticket p of pool P = bytes 16p .. 16p + 15 of stream(("poolgen/v1", RULES, P, "salt")),
                    as 32 lower-case hex digits
    tier of ticket p of pool P = base[perm[p]], perm = permutation(stream(("poolgen/v1", RULES, P,
                    "order")), tickets), base = the pool entry's tiers in the manifest's order (the
                    losing tier first), each repeated its `count`; only when the manifest's
                    `print.packs` (printed) or `blocks` (eInstant) holds nothing beside `neighbours`
                    and `shares`: other parameters draw the order otherwise (docs/randomness.md 5.2 to
                    5.10), which only regeneration (`poolgen verify --seed-file`) checks

The layouts follow from the "layout" stream through each style's contract: those only regeneration
checks.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest, PoolEntry
from audit.read.runfiles import read_pool
from audit.steps.numbers import Stream, permutation

__all__ = ["check_order_and_salts", "order_parameters"]

SALT_BYTES = 16
FREE_KEYS = frozenset({"neighbours", "shares"})  # parameters that leave the tier order alone (5.1, 5.4)


def order_parameters(manifest: Manifest) -> list[str]:
    """The manifest's pack (printed) or block (eInstant) parameters that constrain the tier order, as
    `print.packs.<key>` or `blocks.<key>`; [] when the order is the plain shuffle of section 4: as
    poolgen draws it, a parameter given (an empty list of caps or spacing rules is none), and for an
    eInstant only within blocks (`shares`)."""
    if manifest.kind == "printed":
        where, table = "print.packs", manifest.doc.get("print", {}).get("packs")
    else:
        where, table = "blocks", manifest.doc.get("blocks")
    if not isinstance(table, dict) or (manifest.kind != "printed" and "shares" not in table):
        return []  # a run made before the manifest recorded them: the default rule (docs/manifest.md)
    return [f"{where}.{k}" for k in sorted(table) if k not in FREE_KEYS and table[k] not in (None, [], {})]


def _salts(seed: bytes, rules: str, pool: PoolEntry) -> pl.Series:
    digits = Stream(seed, "poolgen/v1", rules, pool.id, "salt").read(SALT_BYTES * pool.tickets).hex().encode()
    return pl.Series("salt", np.frombuffer(digits, dtype=f"S{2 * SALT_BYTES}")).cast(pl.String)


def _tiers(seed: bytes, rules: str, pool: PoolEntry) -> pl.Series:
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    perm = permutation(seed, ("poolgen/v1", rules, pool.id, "order"), pool.tickets)
    ids = pl.Series("tier", [t.id for t in pool.tiers], dtype=pl.String)
    return ids.gather(base[perm])


def _first_off(shown: pl.Series, want: pl.Series) -> tuple[int, int] | None:
    """(how many differ, the first position) or None when equal (the same length: the caller's)."""
    off = np.flatnonzero((shown != want).fill_null(True).to_numpy())
    return (off.size, int(off[0])) if off.size else None


def check_order_and_salts(folder: Path, manifest: Manifest, seed: bytes) -> tuple[str, str]:
    """(7) every pool file's salts and, unless pack or block parameters constrain it, its tiers in pool
    order are the seed's. Returns (what was re-derived, a remark on what was not: "" or the order's
    parameters). A pool whose file is missing, holds another number of rows than its tickets, or whose
    tier counts are not its tickets is skipped: steps 2, 3 and 5 report those."""
    constrained = order_parameters(manifest)
    wrong, salts, tiers = [], 0, 0
    for pool in manifest.pools:
        if not (folder / pool.file).is_file() or sum(t.count for t in pool.tiers) != pool.tickets \
                or any(t.count < 0 for t in pool.tiers):
            continue
        table = read_pool(folder, pool.file, ["tier", "salt"])
        if len(table) != pool.tickets:  # step 3 says how many rows it holds
            continue
        off = _first_off(table["salt"], _salts(seed, manifest.rules, pool))
        salts += 1
        if off:  # positions only: a salt is not to be quoted in reports
            wrong.append(f"{pool.file}: {off[0]:,} salt(s) not the seed's, first at position {off[1]:,}")
        if constrained:
            continue
        want = _tiers(seed, manifest.rules, pool)
        off = _first_off(table["tier"], want)
        tiers += 1
        if off:  # positions only: a tier at a position is an outcome (a report may be circulated)
            wrong.append(f"{pool.file}: {off[0]:,} ticket(s) not in the seed's tier order, first at position "
                         f"{off[1]:,}")
    if wrong:
        raise VerificationError(Step.REPRODUCTION, "seed matches the commitment; " + "; ".join(wrong)
                                + " (docs/randomness.md, section 4: the pool's salt and order streams)")
    done = "" if not salts else f"the salts and tier order of {salts} pool(s)" if tiers == salts else \
        f"the salts of {salts} pool(s)" + (f" and the tier order of {tiers}" if tiers else "")
    remark = (f"tier order not re-derived: {', '.join(constrained)} draw it otherwise (docs/randomness.md "
              "section 5; `poolgen verify --seed-file` regenerates it)") if constrained and salts else ""
    return done, remark
