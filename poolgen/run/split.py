"""Spreading a tier's count over the order's pools (`[printed] split = "even"`, docs/randomness.md 4b).

Pool k of s_k tickets (the order's N tickets in all) gets a tier of c per order as its exact share
c s_k / N rounded down, f_k = c s_k // N, or up, f_k + 1; with r_k = c s_k mod N, R = sum r_k / N
pools round up (a whole number: sum s_k = N). Which ones is drawn from the order's "split" stream,
tier after tier (tiers whose shares are all whole draw nothing): a permutation of the P pools, then
u = integers(N); walking the pools in the permutation's order, pool k covers [C - r_k, C) with C the
running sum of the r's, and rounds up iff that interval holds a point of u, u + N, ..., u + (R-1) N.
Each pool rounds up with probability exactly r_k / N, so its expected count is its exact share; when
every r_k is equal, the pools rounding up are a uniform R-subset. Losers absorb the difference.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from poolgen.game.model import Game, Pool, PoolTier, Printed
from poolgen.rng import derive_stream, integers, permutation
from poolgen.rng.labels import LABEL_ROOT

if TYPE_CHECKING:  # types only
    from poolgen.rng.drbg import Stream

__all__ = ["ceiling_game", "manifest_split", "most_losers", "round_ups", "rounded_down", "split_counts",
           "split_game", "split_label", "split_tier", "stated_game"]


def split_label(rules: str) -> tuple[str, ...]:
    """The label of the order's split stream (one per order, as the books stream)."""
    return (LABEL_ROOT, rules, "order", "split")


def split_tier(stream: Stream, count: int, sizes: list[int]) -> list[int]:
    """The count of a tier of `count` per order in each pool of `sizes` (docs/randomness.md 4b)."""
    order = sum(sizes)
    floors = [count * s // order for s in sizes]
    rests = [count * s % order for s in sizes]
    up = sum(rests) // order
    if not up:
        return floors
    visit = [int(k) for k in permutation(stream, len(sizes))]
    u = int(integers(stream, order, 1)[0])
    return [f + up for f, up in zip(floors, round_ups(rests, order, visit, u), strict=True)]


def round_ups(rests: list[int], order: int, visit: list[int], u: int) -> list[int]:
    """1 for each pool that rounds up, else 0: walking the pools in `visit`'s order, pool k covers the
    next r_k integers of [0, R N) and rounds up iff one of the points u, u + N, ... lies there."""
    up = [0] * len(rests)
    below = total = 0  # below: the points u + j N (j >= 0) under the running sum `total`
    for k in visit:
        total += rests[k]
        points = max(0, (total - u + order - 1) // order)
        up[k] = points - below
        below = points
    return up


def split_counts(seed: bytes, rules: str, counts: list[int], sizes: list[int]) -> list[list[int]]:
    """Every tier's count per pool (tier by tier, in tier order), from the seed's split stream."""
    stream = derive_stream(seed, *split_label(rules))
    return [split_tier(stream, c, sizes) for c in counts]


def split_game(game: Game, seed: bytes) -> Game:
    """The game with its pools' counts drawn from the seed (the game as it is without a split, or
    once drawn: its pools' counts then add up to the order's)."""
    sales = game.sales
    if not isinstance(sales, Printed) or sales.split is None:
        return game
    if all(sum(p.tiers[t.index].count for p in game.pools) == t.count for t in game.tiers):
        return game  # drawn already (a split the loader accepts rounds some share up)
    table = split_counts(seed, game.id, [t.count for t in game.tiers], [p.tickets for p in game.pools])
    pools = []
    for k, pool in enumerate(game.pools):
        counts = [row[k] for row in table]
        tiers = (PoolTier("lose", 0, pool.tickets - sum(counts)),) + tuple(
            PoolTier(t.id, t.prize_cents, c) for t, c in zip(pool.tiers[1:], counts, strict=True))
        pools.append(replace(pool, tiers=tiers))
    return replace(game, pools=tuple(pools))


def stated_game(game: Game, manifest: dict[str, Any]) -> Game:
    """The game with a split order's pools holding the counts a run's manifest states for them (the
    seed's draw, which a proof made without the seed cannot repeat); any other game as it is."""
    sales = game.sales
    if not isinstance(sales, Printed) or sales.split is None:
        return game
    stated = {p.get("id"): {t.get("id"): t.get("count") for t in p.get("tiers", [])}
              for p in manifest.get("pools", []) if isinstance(p, dict)}
    pools = []
    for pool in game.pools:
        counts = stated.get(pool.id)
        pools.append(pool if counts is None else replace(pool, tiers=tuple(
            replace(t, count=counts.get(t.id, t.count)) for t in pool.tiers)))
    return replace(game, pools=tuple(pools))


def ceiling_game(game: Game) -> Game:
    """The game with every pool holding each winning tier's share rounded up (the most a split gives of
    every winning tier, and so the fewest losers; the loader proved they stay whole): what `check`
    probes layouts and packs with."""
    sales = game.sales
    if not isinstance(sales, Printed) or sales.split is None:
        return game
    pools = []
    for pool in game.pools:
        counts = [-(-t.count * pool.tickets // sales.order_tickets) for t in game.tiers]
        tiers = (PoolTier("lose", 0, pool.tickets - sum(counts)),) + tuple(
            PoolTier(t.id, t.prize_cents, c) for t, c in zip(pool.tiers[1:], counts, strict=True))
        pools.append(replace(pool, tiers=tiers))
    return replace(game, pools=tuple(pools))


def rounded_down(game: Game, pool: Pool) -> Pool:
    """`pool` of a split order with every winning tier's share rounded down (the fewest a split gives of
    each, and so the most losers: the pool as the loader reads it); any other game's pool as it is."""
    sales = game.sales
    if not isinstance(sales, Printed) or sales.split is None:
        return pool
    counts = [t.count * pool.tickets // sales.order_tickets for t in game.tiers]
    return replace(pool, tiers=(PoolTier("lose", 0, pool.tickets - sum(counts)),) + tuple(
        PoolTier(t.id, t.prize_cents, c) for t, c in zip(pool.tiers[1:], counts, strict=True)))


def most_losers(game: Game, pool: Pool) -> int:
    """The most losers a split may leave `pool`: its tickets less every winning tier's share rounded
    down (the pool's own losing count for a game without a split). `ceiling_game` holds the fewest."""
    sales = game.sales
    if not isinstance(sales, Printed) or sales.split is None:
        return pool.tiers[0].count
    return pool.tickets - sum(t.count * pool.tickets // sales.order_tickets for t in game.tiers)


def manifest_split(game: Game) -> dict[str, object] | None:
    """The manifest's `print.split` (docs/manifest.md): what audit re-derives the pools' counts from,
    and holds them to without the seed; None for a game without a split."""
    sales = game.sales
    if not isinstance(sales, Printed) or sales.split is None:
        return None
    return {"rule": sales.split, "order_tickets": sales.order_tickets, "pool_tickets": sales.pool_tickets,
            "tiers": [{"id": t.id, "count": t.count} for t in game.tiers]}
