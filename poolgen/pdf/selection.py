"""Which tickets a proof shows by default, and finding tickets by id.

Default selection: `per_tier` tickets of every tier of every pool, chosen with poolgen's DRBG
seeded from the run itself, never from the OS and never from the secret seed:

    seed   = SHA-256(b"poolgen/proof-selection/v1" || exact bytes of manifest.json)
    stream = derive_stream(seed, "poolgen/v1", "proof", pool_id)

For each tier in manifest order, k = min(per_tier, tickets of the tier) distinct tickets are
drawn from the tier's tickets in pool order by Floyd's algorithm (for j = n-k .. n-1:
t = integers(stream, j + 1); take t, or j if t is taken), so a run always gives the same proof.
"""

from __future__ import annotations

import hashlib

import polars as pl

from poolgen.errors import RunError
from poolgen.rng import Stream, derive_stream, integers
from poolgen.run.folder import RunFolder

__all__ = ["SELECTION_LABEL", "default_selection", "find_tickets", "selection_seed"]

SELECTION_LABEL = b"poolgen/proof-selection/v1"


def selection_seed(manifest_bytes: bytes) -> bytes:
    """The proof-selection seed of a run: a hash of its manifest's exact bytes."""
    return hashlib.sha256(SELECTION_LABEL + manifest_bytes).digest()


def _floyd(stream: Stream, n: int, k: int) -> list[int]:
    chosen: set[int] = set()
    for j in range(n - k, n):
        t = int(integers(stream, j + 1, size=1)[0])
        chosen.add(j if t in chosen else t)
    return sorted(chosen)


def default_selection(run: RunFolder, pool_ids: list[str], per_tier: int) -> list[tuple[str, int]]:
    """(pool id, position) of `per_tier` tickets of every tier of each pool (see module doc)."""
    seed = selection_seed(run.manifest_bytes)
    out: list[tuple[str, int]] = []
    for pid in pool_ids:
        entry = run.pool(pid)
        stream = derive_stream(seed, "poolgen/v1", "proof", pid)
        run.require(pid, ["position", "tier"])
        groups = dict(run.collect(pid, lambda lf: lf.group_by("tier").agg(pl.col("position").sort()))
                      .iter_rows())
        for tier in entry["tiers"]:
            positions = groups.get(tier["id"], [])
            if not positions:
                continue
            picks = _floyd(stream, len(positions), min(per_tier, len(positions)))
            out += [(pid, int(positions[i])) for i in picks]
    return out


def find_tickets(run: RunFolder, ids: list[str], pool_ids: list[str]) -> list[tuple[str, int]]:
    """(pool id, position) of each ticket id, in the order asked; an unknown id is an error."""
    found: dict[str, tuple[str, int]] = {}
    for pid in pool_ids:
        run.require(pid, ["ticket", "position"])
        hits = run.collect(pid, lambda lf: lf.filter(pl.col("ticket").is_in(ids))
                           .select("ticket", "position"))
        for ticket, pos in hits.iter_rows():
            found.setdefault(ticket, (pid, int(pos)))
    for t in ids:
        if t not in found:
            where = "any pool" if len(pool_ids) == len(run.pools) else "pool " + ", ".join(pool_ids)
            raise RunError(f"{run.name}: no ticket {t!r} in {where}")
    return [found[t] for t in dict.fromkeys(ids)]
