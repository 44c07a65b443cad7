"""The neighbour rule on layouts (docs/randomness.md, section 5): no two consecutive tickets of a pack
(and, with `neighbours = "across packs"`, of a pool) have identical play data, spot for spot. An
eInstant's rule is "across packs" unless its spec says otherwise: every pair of consecutive serials,
blocks or none (an eInstant without blocks is one run of positions, cut only where the tier changes).

Every style draws each ticket's layout from its tier's distribution, independently of the others
(docs/styles/), and two tickets of different tiers never show the same play data (a layout
evaluates to its tier). So the rule only links consecutive tickets of one tier, and the pool's
positions split into maximal runs of one tier (cut at every pack boundary unless "across packs"),
whose layouts are independent of each other's. Rejection run by run is then exact: every run that
holds an identical pair is laid out again, all of its tickets from the same layout stream (the pool's
"layout" stream, continued after the first lay-out), runs still holding one again, until none does.
A run is laid out with the pool's mix (each tier's count in the pool), from which a style takes any
weight it draws by, so its tickets are drawn from the same distribution as the first lay-out's.
A pool with no identical pair keeps every byte it had without the rule.
"""

from __future__ import annotations

import numpy as np

from poolgen.errors import SpecError
from poolgen.game.model import Game, Pool
from poolgen.rng import Stream
from poolgen.run.packs.composition import pack_size

__all__ = ["identical_pairs", "separate_neighbours"]

MAX_ROUNDS = 1_000


def identical_pairs(columns: dict[str, np.ndarray], per_book: int, across: bool) -> np.ndarray:
    """Positions p whose ticket has the same value as ticket p + 1 in every column, p + 1 in p's pack
    (or anywhere in the pool when `across`)."""
    values = list(columns.values())
    n = len(values[0]) if values else 0
    same = np.ones(max(n - 1, 0), dtype=bool)
    for v in values:
        same &= v[1:] == v[:-1]
    if not across:
        same &= (np.arange(1, n) % per_book) != 0
    return np.flatnonzero(same)


def _runs(tiers: np.ndarray, starts: np.ndarray, per_book: int, across: bool) -> list[np.ndarray]:
    """The maximal runs of one tier holding each pair start (each run once, in position order)."""
    n = tiers.size
    cut = np.ones(n, dtype=bool)  # cut[p]: a run starts at p
    cut[1:] = tiers[1:] != tiers[:-1]
    if not across:
        cut[::per_book] = True
    first = np.flatnonzero(cut)
    ends = np.append(first[1:], n)
    which = np.unique(np.searchsorted(first, starts, side="right") - 1)
    return [np.arange(first[k], ends[k]) for k in which]


def _holding_pairs(columns: dict[str, np.ndarray], rows: np.ndarray, sizes: list[int]) -> np.ndarray:
    """For runs laid end to end in `rows` (their sizes in order): whether each holds two consecutive
    tickets with the same value in every column. `identical_pairs` of each run, across packs, at once:
    the pairs that straddle two runs are not counted."""
    same = np.ones(max(rows.size - 1, 0), dtype=bool)
    for v in columns.values():
        x = v[rows]
        same &= x[1:] == x[:-1]
    ends = np.cumsum(sizes)[:-1]  # where each run but the first starts
    same[ends - 1] = False
    run_of = np.repeat(np.arange(len(sizes)), sizes)[:-1]  # the run of each pair's first ticket
    return np.bincount(run_of[same], minlength=len(sizes)) > 0


def separate_neighbours(game: Game, pool: Pool, tiers: np.ndarray, layout: dict[str, np.ndarray],
                        stream: Stream) -> dict[str, np.ndarray]:
    """`layout` with every run holding an identical pair laid out again until none does."""
    per_book = pack_size(game) or pool.tickets  # an eInstant without blocks: the pool, "across packs"
    if game.packs.neighbours is None or not layout:
        return layout
    across = game.packs.neighbours == "across packs"
    starts = identical_pairs(layout, per_book, across)
    if not starts.size:
        return layout
    out = {k: v.copy() for k, v in layout.items()}
    runs = _runs(np.asarray(tiers), starts, per_book, across)
    mix = np.bincount(np.asarray(tiers), minlength=len(pool.tiers)).tolist()  # the pool's, not the runs'
    for _ in range(MAX_ROUNDS):
        rows = np.concatenate(runs)
        again = game.play.lay_out(game, pool, np.asarray(tiers)[rows], stream, mix)
        for name, values in again.items():
            out[name][rows] = values
        held = _holding_pairs(out, rows, [run.size for run in runs])  # a run lies in one pack unless across
        if not held.any():
            return out
        runs = [run for run, h in zip(runs, held.tolist(), strict=True) if h]
    tier_ids = sorted({pool.tiers[int(tiers[r[0]])].id for r in runs})
    table = "blocks" if game.packs.einstant else "packs"  # check makes this about one pool in a million
    raise SpecError(f"{game.file}: {table}.neighbours: pool {pool.id}: identical neighbours remain "
                    f"after {MAX_ROUNDS:,} rounds in runs of tier(s) {', '.join(tier_ids)}: too few "
                    f"layouts for the neighbour rule; write neighbours = \"off\" in [{table}] (or give the "
                    "tiers more varied layouts)")
