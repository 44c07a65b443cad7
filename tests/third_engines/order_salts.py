"""A third engine for a pool's salts and tier order, from docs/randomness.md sections 2 to 4 and
docs/pool-files.md (`salt`) alone, with split.py's stream (its own HKDF-SHA256 and ChaCha20) and
permutation: given the seed, the game's rules id, a pool's id and its tiers in the manifest's order
(each with its count), every position's salt and tier; and, from a manifest, whether its pack or block
parameters leave the order to section 4 (the only case audit's step 7 re-derives it).

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): it was written
without reading them."""

from __future__ import annotations

from tests.third_engines.split import Stream

# The keys of `print.packs` (printed) or `blocks` (eInstant) that are no rule drawing the order: the
# neighbour rule re-lays layouts only (docs/randomness.md 5.1), and `shares` is the size of a block.
NOT_ORDER_RULES = frozenset({"neighbours", "shares"})


def salts(seed: bytes, rules: str, pool: str, tickets: int) -> list[str]:
    """Position p's salt: bytes 16 p .. 16 p + 15 of the pool's "salt" stream, 32 lower-case hex digits."""
    data = Stream(seed, ("poolgen/v1", rules, pool, "salt")).read(16 * tickets)
    return [data[16 * p:16 * p + 16].hex() for p in range(tickets)]


def tier_order(seed: bytes, rules: str, pool: str, tiers: list[tuple[str, int]]) -> list[str]:
    """Position p's tier: `base[perm[p]]`, base the tiers in the given order each repeated its count,
    perm the permutation of len(base) from the pool's "order" stream."""
    base = [tier for tier, count in tiers for _ in range(count)]
    perm = Stream(seed, ("poolgen/v1", rules, pool, "order")).permutation(len(base))
    return [base[i] for i in perm]


def order_rules(manifest: dict) -> list[str]:
    """The pack or block parameters that draw the order otherwise (section 5): the keys of
    `print.packs` or `blocks` beside `neighbours` and `shares` whose value is not an empty list. None:
    the order is section 4's, and audit re-derives it."""
    rules = (manifest.get("print") or {}).get("packs") or manifest.get("blocks") or {}
    return [key for key, value in rules.items() if key not in NOT_ORDER_RULES and value != []]
