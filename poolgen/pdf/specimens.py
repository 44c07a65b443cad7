"""Specimen tickets: what `poolgen proof` draws by default, one of every tier of every pool, laid out
afresh by the game's own styles from a DRBG stream of their own, so a proof shows how every tier
looks and pays without telling where any ticket of the pool is (docs/proofs.md).

    seed   = SHA-256(b"poolgen/specimen/v1" || exact bytes of manifest.json)
    stream = derive_stream(seed, "poolgen/specimen/v1", rules, pool_id)

The pool's styles lay out one ticket of each tier with a count (tier order, losing tier first) from
that stream, exactly as they lay out a pool (`Play.lay_out`). The stream is derived from the public
manifest, never from the run's secret seed, and its label is none of a pool's (docs/randomness.md):
a specimen is no ticket of the pool, whatever its layout.

A specimen's identity says it is one: a printed specimen is ticket `GGG-SPECIMEN-NNN` (N = 1, 2, ...
in tier order), book 0, ticket number N, and its barcode number has check digits one above the valid
ones, so it reads 2 mod 97 and every validation system refuses it (poolgen/deliverables/identity.py);
an eInstant specimen is share `POOL-SPECIMEN-NNN`, serial 0 (real serials start at 1).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

from poolgen.errors import RunError
from poolgen.game.model import Game, Printed
from poolgen.rng import derive_stream
from poolgen.run.split import stated_game

__all__ = ["SPECIMEN_LABEL", "specimen_barcode", "specimen_rows"]

SPECIMEN_LABEL = "poolgen/specimen/v1"


def specimen_barcode(game_number: int, n: int) -> str:
    """The barcode number of printed specimen n: book 0, ticket n, check digits one above the valid
    ones (never valid: the number reads 2 mod 97)."""
    data = f"{game_number:03d}{0:07d}{n:03d}"
    valid = 98 - int(data + "00") % 97  # 2 .. 98: one above is at most 99
    return f"{data}{valid + 1:02d}"


def specimen_rows(manifest_bytes: bytes, game: Game, pool_ids: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """(pool id, row) of one specimen of every tier with tickets of each pool, in tier order."""
    seed = hashlib.sha256(SPECIMEN_LABEL.encode() + manifest_bytes).digest()
    game = stated_game(game, json.loads(manifest_bytes))  # a split order's counts are the run's
    pools = {p.id: p for p in game.pools}
    out: list[tuple[str, dict[str, Any]]] = []
    n = 0
    for pid in pool_ids:
        if pid not in pools:
            raise RunError(f"{game.file}: no pool {pid!r} in the spec")
        pool = pools[pid]
        kept = [i for i, t in enumerate(pool.tiers) if t.count > 0]
        stream = derive_stream(seed, SPECIMEN_LABEL, game.id, pid)
        layout = game.play.lay_out(game, pool, np.array(kept, dtype=np.int16), stream,
                                   [t.count for t in pool.tiers])  # drawn as the pool's tickets are
        for j, i in enumerate(kept):
            n += 1
            tier = pool.tiers[i]
            row: dict[str, Any] = {"position": j, "tier": tier.id, "prize_cents": tier.prize_cents,
                                   "specimen": n}
            if isinstance(game.sales, Printed):
                assert game.number is not None  # a printed game's number is required (loader)
                row.update(ticket=f"{game.number:03d}-SPECIMEN-{n:03d}", book=0, ticket_no=n,
                           barcode=specimen_barcode(game.number, n))
            else:
                row.update(ticket=f"{pid}-SPECIMEN-{n:03d}", serial=0)
            for name, values in layout.items():
                value = np.asarray(values)[j]
                row[name] = value.item() if hasattr(value, "item") else value
            out.append((pid, row))
    return out
