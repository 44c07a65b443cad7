"""A third engine for the pack parameters' Metropolis chain (docs/randomness.md 5.3: a value floor,
and the rule sets no exact section takes), from docs/randomness.md sections 2 to 5 and docs/new-game.md
section 2b alone: given the seed, the game's rules id, the pool's id, its pack size, its tiers' counts
and prizes and its `[packs]` rules, it draws the pool's tier order again from the pool's "order"
stream: 5.3's start, descent, mixing and orders, proposal by proposal.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): the stream is
split.py's (its own HKDF and ChaCha20), 5.2's start packs.py's and 5.8's spaced places
packs_draws.py's."""

from __future__ import annotations

from dataclasses import dataclass

from tests.third_engines.packs import Exhausted, Rules, bounds, plain, winners_only
from tests.third_engines.packs import draw as exact_draw
from tests.third_engines.packs_draws import spaced_places
from tests.third_engines.split import Stream

BATCH = 65_536  # 5.3 steps 2 and 3: proposals a batch, at most
SWEEPS = 12  # step 3: 12 n mixing proposals
DESCENT = 200  # step 2: a descent gives up after 200 n proposals
RESTARTS = 3  # step 2: then starts again from a new start, at most 3 times (4 descents)
ORDER_ROUNDS = 10_000  # step 4: new orders of the packs breaking a spacing rule, at most


class Refused(Exception):
    """What the contract says poolgen refuses: a descent that does not end, or packs no new order
    spaces under several spacing rules."""


@dataclass(frozen=True)
class Pool:
    """The pool as the chain reads it: pack size, each tier's prize in cents (0 the losers; a free
    ticket at the price), and the rules (tier sets as indices)."""

    m: int
    prizes: list[int]
    rules: Rules

    def shortfall(self, pack: list[int]) -> int:
        """Step 2's shortfall of one pack (its tiers in print order): winners below lo or above hi, the
        value's shortfall in units of the smallest prize, each cap's excess, and per spacing rule its
        pairs of spaced tickets closer than allowed."""
        lo, hi = bounds(self.rules, self.m)
        wins = sum(1 for t in pack if t)
        out = max(0, lo - wins) + max(0, wins - hi)
        if self.rules.floor is not None:
            value = sum(self.prizes[t] for t in pack)
            if value < self.rules.floor:
                unit = min(p for p in self.prizes if p)
                out += -(-(self.rules.floor - value) // unit)
        for tiers, k in self.rules.caps:
            out += max(0, sum(1 for t in pack if t in tiers) - k)
        out += self.closer(pack)
        return out

    def closer(self, pack: list[int]) -> int:
        """Pairs of one spacing rule's tickets closer than its distance, over the rules."""
        out = 0
        for tiers, d in self.rules.spacing:
            places = [i for i, t in enumerate(pack) if t in tiers]
            out += sum(1 for a, x in enumerate(places) for y in places[a + 1:] if y - x < d)
        return out


def redraw(seed: bytes, rules_id: str, pool_id: str, m: int, counts: list[int], prizes: list[int],
           rules: Rules) -> list[int]:
    """The pool's tier order (tier indices, 0 the losers) as 5.3 draws it."""
    return draw(Stream(seed, ("poolgen/v1", rules_id, pool_id, "order")), counts, Pool(m, prizes, rules))


def draw(stream: Stream, counts: list[int], pool: Pool) -> list[int]:
    """Steps 1 to 4 on `stream`."""
    m, rules = pool.m, pool.rules
    n = sum(counts)
    bounded = rules.min_winners is not None or rules.max_winners is not None
    lo, hi = bounds(rules, m)
    for attempt in range(RESTARTS + 1):  # a descent that gives up starts again from a new start
        order = winners_only(stream, counts, m, lo, hi) if bounded else plain(stream, counts)
        packs = [order[b * m:(b + 1) * m] for b in range(n // m)]
        try:
            descend(stream, packs, pool, n)
            break
        except Refused:
            if attempt == RESTARTS:
                raise
    mix(stream, packs, pool, n)
    return orders(stream, packs, pool)


def several(seed: bytes, rules_id: str, pool_id: str, m: int, counts: list[int], prizes: list[int],
            rules: Rules) -> tuple[str, list[int]]:
    """A pool of 5.12's or 5.13's rules: its tries (packs.py), and after 10,000 none of which met every
    rule the chain's steps 1 to 4 from where they left the stream (5.12, 5.13); the section that drew it."""
    stream = Stream(seed, ("poolgen/v1", rules_id, pool_id, "order"))
    try:
        return exact_draw(stream, counts, m, rules)
    except Exhausted:
        return "5.3", draw(stream, counts, Pool(m, prizes, rules))


def descend(stream: Stream, packs: list[list[int]], pool: Pool, n: int) -> None:
    """Step 2: batches of k = min(65,536, n) proposals (a breaking pack, a ticket in it, a ticket
    anywhere), a swap kept when the two packs' total shortfall does not grow."""
    m, done = pool.m, 0
    while True:
        bad = [b for b, p in enumerate(packs) if pool.shortfall(p)]
        if not bad:
            return
        if done >= DESCENT * n:
            raise Refused("the descent did not end")
        k = min(BATCH, n, DESCENT * n - done)
        which, inside, anywhere = stream.integers(len(bad), k), stream.integers(m, k), stream.integers(n, k)
        short = sum(pool.shortfall(packs[b]) for b in bad)
        for a, i, j in zip(which, inside, anywhere, strict=True):
            b, c, y = bad[a], j // m, j % m
            one, two = packs[b], packs[c]
            if b == c or one[i] == two[y]:
                continue
            before = pool.shortfall(one) + pool.shortfall(two)
            one[i], two[y] = two[y], one[i]
            after = pool.shortfall(one) + pool.shortfall(two)
            if after > before:
                one[i], two[y] = two[y], one[i]
                continue
            short += after - before  # every pack's shortfall: those of no kept move are as they were
            if not short:
                break  # the batch's other proposals are drawn and left unused
        done += k


def mix(stream: Stream, packs: list[list[int]], pool: Pool, n: int) -> None:
    """Step 3: 12 n proposals, batches of at most 65,536 pairs from `integers(n, 2k)`, pair t being
    values 2t and 2t + 1; a swap of different packs and tiers kept iff both still meet every rule."""
    m, left = pool.m, SWEEPS * n
    while left:
        k = min(BATCH, left)
        drawn = stream.integers(n, 2 * k)
        for i, j in zip(drawn[0::2], drawn[1::2], strict=True):
            b, x, c, y = i // m, i % m, j // m, j % m
            one, two = packs[b], packs[c]
            if b == c or one[x] == two[y]:
                continue
            one[x], two[y] = two[y], one[x]
            if pool.shortfall(one) or pool.shortfall(two):
                one[x], two[y] = two[y], one[x]
        left -= k


def orders(stream: Stream, packs: list[list[int]], pool: Pool) -> list[int]:
    """Step 4: each pack in the order of its row of `row_permutations(B, m)` (ticket j its content at
    the row's j-th index), then the packs breaking a spacing rule in a new order together, in pack
    order, until none does, each new row indexing the pack as step 3 left it; after 10,000 new orders
    the packs still breaking one rule drawn directly, as 5.8 draws a pack's order."""
    m = pool.m
    rows = stream.row_permutations(len(packs), m)
    out = [[p[e] for e in row] for p, row in zip(packs, rows, strict=True)]
    bad = [b for b, p in enumerate(out) if pool.closer(p)]
    for _ in range(ORDER_ROUNDS):
        if not bad:
            break
        for b, row in zip(bad, stream.row_permutations(len(bad), m), strict=True):
            out[b] = [packs[b][e] for e in row]  # the row indexes the pack as the chain left it
        bad = [b for b in bad if pool.closer(out[b])]
    if bad:
        if len(pool.rules.spacing) > 1:
            raise Refused("packs with no order meeting several spacing rules in 10,000")
        (tiers, d), = pool.rules.spacing
        rows = stream.row_permutations(len(bad), m)
        shuffled = [[packs[b][e] for e in row] for b, row in zip(bad, rows, strict=True)]
        split = [([t for t in p if t in tiers], [t for t in p if t not in tiers]) for p in shuffled]
        placed = spaced_places(stream, split, m, d)  # the spaced ones first, stably: 5.8 step 3
        for i, b in enumerate(bad):
            out[b] = placed[i * m:(i + 1) * m]
    return [t for p in out for t in p]
