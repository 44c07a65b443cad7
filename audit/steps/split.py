"""A split order's counts per pool (`print.split`, docs/randomness.md section 4b), written from that
section and docs/manifest.md alone.

Without the seed (step 5): every pool of the run is a pool of the order (pool k is `pk`, of the
order's k-th size: whole pools of `pool_tickets`, then the rest), each tier's count in it is its exact
share c s / N rounded down or up, its losers are its tickets less its winners, and when the run holds
every pool of the order, each tier's counts add up to the order's. With the seed (step 7): the counts
are the ones the order's split stream draws, re-derived here with audit's own DRBG:

    for each tier of c per order, in order: f_k = c s_k // N, r_k = c s_k mod N, R = sum r_k / N;
    if R > 0: perm = permutation(split stream, P), then u = integers(split stream, N); walking the
    pools in perm's order with C the running sum of the r's, pool k rounds up iff a point u + j N
    (0 <= j < R) lies in [C - r_k, C).
"""

from __future__ import annotations

from typing import Any, TypeGuard

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.limits import MAX_POOL_TICKETS, MAX_POOLS, MAX_TIERS
from audit.read.manifest import Manifest
from audit.steps.numbers import Stream

__all__ = ["SplitOrder", "check_split_bounds", "check_split_seed", "read_split", "split_table"]


class SplitOrder:
    """`print.split` as read: the order's tickets, its pools' sizes and each tier's count per order."""

    def __init__(self, order: int, sizes: list[int], tiers: list[tuple[str, int]]) -> None:
        self.order, self.sizes, self.tiers = order, sizes, tiers

    def bounds(self, count: int, tickets: int) -> tuple[int, int]:
        """The least and most of a tier of `count` per order in a pool of `tickets`."""
        return count * tickets // self.order, -(-count * tickets // self.order)


def _whole(value: object, least: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def read_split(manifest: Manifest) -> SplitOrder | None:
    """The manifest's `print.split`, None without one; a field not of its form fails step 5."""
    printed = manifest.doc.get("print")
    raw: Any = printed.get("split") if isinstance(printed, dict) else None
    if raw is None:
        return None

    def bad(field: str, why: str) -> VerificationError:
        return VerificationError(Step.FIGURES, f"print.split.{field}: {why} (docs/manifest.md)")

    if not isinstance(raw, dict) or raw.get("rule") != "even":
        raise bad("rule", "must be \"even\"")
    order, size = raw.get("order_tickets"), raw.get("pool_tickets")
    if not _whole(size, 1) or size > MAX_POOL_TICKETS:
        raise bad("pool_tickets", f"must be a whole number, 1 to {MAX_POOL_TICKETS:,}")
    if not _whole(order, size) or -(-order // size) > MAX_POOLS:  # a manifest's bounds, before any list
        raise bad("order_tickets", f"must be a whole number, whole pools of pool_tickets and a rest, at "
                                   f"most {MAX_POOLS} pools")
    tiers = raw.get("tiers")
    if not isinstance(tiers, list) or len(tiers) > MAX_TIERS or not all(
            isinstance(t, dict) and isinstance(t.get("id"), str) and _whole(t.get("count"), 0)
            and t["count"] <= order for t in tiers):
        raise bad("tiers", f"must be a list of at most {MAX_TIERS} {{id, count}}, each count at most the "
                           "order")
    sizes = [size] * (order // size) + ([order % size] if order % size else [])
    return SplitOrder(order, sizes, [(t["id"], t["count"]) for t in tiers])


def check_split_bounds(manifest: Manifest) -> str:
    """(5) every pool's counts within one of its exact share, and adding up to the order's when the
    run holds the whole order; "" for a run without a split."""
    split = read_split(manifest)
    if split is None:
        return ""
    problems, held = [], set()
    for pool in manifest.pools:
        k = int(pool.id[1:]) - 1 if pool.id[:1] == "p" and pool.id[1:].isdigit() else -1
        if not 0 <= k < len(split.sizes) or pool.tickets != split.sizes[k]:
            problems.append(f"pool {pool.id}: not a pool of the split order (pools of {split.sizes[0]:,}, "
                            f"{len(split.sizes)} in all)")
            continue
        held.add(k)
        ids = [t.id for t in pool.tiers[1:]]
        if ids != [t for t, _ in split.tiers]:
            problems.append(f"pool {pool.id}: tiers {ids}, print.split {[t for t, _ in split.tiers]}")
            continue
        for t, (tid, count) in zip(pool.tiers[1:], split.tiers, strict=True):
            lo, hi = split.bounds(count, pool.tickets)
            if not lo <= t.count <= hi:
                problems.append(f"pool {pool.id}: tier {tid} has {t.count:,}, its share of {count:,} per "
                                f"order is {lo:,}" + (f" or {hi:,}" if hi > lo else ""))
        if pool.tiers[0].count != pool.tickets - sum(t.count for t in pool.tiers[1:]):
            problems.append(f"pool {pool.id}: {pool.tiers[0].count:,} losers, not its tickets less its "
                            "winners")
    whole = len(held) == len(split.sizes) and len(manifest.pools) == len(split.sizes)
    if "ceremony" in manifest.doc and not whole:  # a ceremony for some pools: the rest from another seed
        problems.append(f"the run's seed ceremony binds {len(manifest.pools)} of the order's "
                        f"{len(split.sizes)} pools: one seed makes every pool of a split order "
                        "(docs/randomness.md 4b)")
    if whole and not problems:
        for i, (tid, count) in enumerate(split.tiers, start=1):
            total = sum(p.tiers[i].count for p in manifest.pools)
            if total != count:
                problems.append(f"tier {tid}: the pools hold {total:,}, the order {count:,}")
    if problems:
        raise VerificationError(Step.FIGURES, "counts split evenly (print.split): " + "; ".join(problems[:5]))
    return (f"counts split evenly: every tier of {len(manifest.pools)} pool(s) within one of its exact share"
            + (", adding up to the order's" if whole else f" (the run holds {len(held)} of the order's "
                                                           f"{len(split.sizes)} pools)"))


def split_table(seed: bytes, rules: str, split: SplitOrder) -> list[list[int]]:
    """Every tier's count per pool of the order, drawn from the seed's split stream."""
    stream = Stream(seed, "poolgen/v1", rules, "order", "split")
    n, table = split.order, []
    mask = (1 << (n - 1).bit_length()) - 1
    for _, count in split.tiers:
        floors = [count * s // n for s in split.sizes]
        rests = [count * s % n for s in split.sizes]
        up = sum(rests) // n
        if up:
            while True:  # permutation: P words as keys, all drawn again on a tie
                keys = [int(w) for w in stream.words(len(split.sizes))]
                if len(set(keys)) == len(keys):
                    break
            visit = sorted(range(len(keys)), key=keys.__getitem__)
            while True:  # integers(N): a word masked, kept below N
                u = int(stream.words(1)[0]) & mask
                if u < n:
                    break
            running, below = 0, 0
            for k in visit:
                running += rests[k]
                points = max(0, -(-(running - u) // n))
                floors[k] += points - below
                below = points
        table.append(floors)
    return table


def check_split_seed(manifest: Manifest, seed: bytes) -> str:
    """(7) every pool's counts are the ones the seed's split stream draws; "" without a split."""
    split = read_split(manifest)
    if split is None:
        return ""
    table = split_table(seed, manifest.doc["game"]["rules"], split)
    wrong = []
    for pool in manifest.pools:
        k = int(pool.id[1:]) - 1 if pool.id[:1] == "p" and pool.id[1:].isdigit() else -1
        if not 0 <= k < len(split.sizes):
            wrong.append(f"pool {pool.id} is no pool of the order")
            continue
        got = [t.count for t in pool.tiers[1:]]
        want = [row[k] for row in table]
        if got != want:
            i = next(i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b) \
                if len(got) == len(want) else 0
            wrong.append(f"pool {pool.id}: tier {split.tiers[i][0]} has {got[i] if got else 0:,}, the seed's "
                         f"split gives {want[i]:,}")
    if wrong:
        raise VerificationError(Step.REPRODUCTION, "seed matches the commitment; " + "; ".join(wrong)
                                + " (docs/randomness.md 4b: the order's split stream)")
    return f"the counts per tier of {len(manifest.pools)} pool(s) (the order's split)"

