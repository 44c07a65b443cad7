"""A spec's `[packs]` (printed) or `[blocks]` (eInstant) rules held to its pools' sizes, tiers and counts
when the spec is read, refused as poolgen's loader refuses them, naming the same field
(docs/new-game.md, section 2b): a rule that asks nothing, more than a pack holds, a tier the spec has
not, a prize no tier pays, and what no pool's counts allow. audit/read/specs/shapes.py has already
checked each field's kind; audit/read/specs/packs.py reads the rules for steps 4, 5 and 8.

Read in the contract's order: the winners bounds, the prize floor, each cap, each spacing rule, then
every pool's counts against its packs (winners, prize money, capped and spaced tickets)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from audit.errors import UnusableInput
from audit.read.specs.money import money, sign_of

__all__ = ["PoolCounts", "refuse_impossible_rules"]


@dataclass(frozen=True)
class PoolCounts:
    """One pool as the spec makes it: its id, tickets, ticket price and each winning tier's count."""

    id: str
    tickets: int
    price_cents: int
    counts: dict[str, int]  # winning tier id -> count (no `lose`)
    prizes: dict[str, int]  # winning tier id -> prize in cents

    @property
    def prize_cents(self) -> int:
        return sum(n * self.prizes[t] for t, n in self.counts.items())


def _cents(cents: int, sign: str) -> str:
    """An amount in the game's currency (`sign`), as poolgen's loader prints it."""
    return f"{sign}{cents // 100:,}.{cents % 100:02d}"


def _fail(field: str, why: str) -> UnusableInput:
    return UnusableInput(f"{field}: {why}")


def _no_blocks(raw: dict[str, Any]) -> None:
    """An eInstant `[blocks]` without `shares`: `neighbours` alone, "across blocks" or "off"."""
    for key in sorted(set(raw) - {"neighbours"}):
        raise _fail("blocks.shares", f"missing field: blocks.{key} is a rule per block, which needs the "
                                     "block's size")
    if raw.get("neighbours") == "within blocks":
        raise _fail("blocks.neighbours", "\"within blocks\" needs blocks.shares; without blocks the rule is "
                                         "\"across blocks\" (every pair of consecutive serials) or \"off\"")


def _winners(raw: dict[str, Any], table: str, m: int) -> tuple[int | None, int | None]:
    unit = table[:-1]
    for key in ("min_winners", "max_winners"):
        if key in raw and raw[key] > m:
            raise _fail(f"{table}.{key}", f"{raw[key]} is more than a {unit}'s {m} tickets")
        if key == "min_winners" and raw.get(key) == 0:
            raise _fail(f"{table}.min_winners", f"0 asks nothing (every {unit} holds at least 0 winners); "
                                                "leave it out")
    lo, hi = raw.get("min_winners"), raw.get("max_winners")
    if lo is not None and hi is not None and lo > hi:
        raise _fail(f"{table}.max_winners", f"{hi} is below min_winners {lo}")
    if hi == m:
        raise _fail(f"{table}.max_winners", f"{m} asks nothing (a {unit} holds {m} tickets); leave it out")
    return lo, hi


def _tiers(entry: dict[str, Any], where: str, prizes: dict[str, int | None], sign: str) -> tuple[str, ...]:
    """The tiers a cap or spacing rule names: `tiers = [ids]`, or `prize = "amount"` (every tier paying
    it; an amount in the game's currency, `sign`)."""
    if ("tiers" in entry) == ("prize" in entry):
        raise _fail(where, "name the tiers (`tiers = [...]`) or one prize level (`prize = \"...\"`), not "
                           "both or neither")
    if "prize" in entry:
        cents = money(entry["prize"], f"{where}.prize", sign)
        ids = tuple(t for t, c in prizes.items() if c == cents)
        if not ids:
            raise _fail(f"{where}.prize", f"no tier pays {_cents(cents, sign)}")
        return ids
    listed = entry["tiers"]
    if not listed or any(not isinstance(t, str) for t in listed):
        raise _fail(f"{where}.tiers", "must be a non-empty list of tier ids")
    for t in listed:
        if t not in prizes:
            raise _fail(f"{where}.tiers", f"no tier {t!r} (tiers: {', '.join(prizes)})")
    if len(set(listed)) != len(listed):
        raise _fail(f"{where}.tiers", "names a tier twice")
    return tuple(listed)


def _once(entry: dict[str, Any], where: str, tiers: tuple[str, ...],
          earlier: list[tuple[str, tuple[str, ...], int]], kind: str, asks: str) -> None:
    """docs/new-game.md 2b: one cap (one spacing rule) a set of tiers, as poolgen's loader reads it."""
    for label, others, _ in earlier:
        if set(others) == set(tiers):
            raise _fail(f"{where}.{'prize' if 'prize' in entry else 'tiers'}",
                        f"the tiers of {label} again: one {kind} a set of tiers ({asks} is the rule)")


def _entries(raw: dict[str, Any], key: str, table: str) -> list[tuple[str, dict[str, Any]]]:
    if key in raw and not raw[key]:
        raise _fail(f"{table}.{key}", "an empty list asks nothing; give a rule or leave it out")
    return [(f"{table}.{key}[{i}]", e) for i, e in enumerate(raw.get(key, []))]


def refuse_impossible_rules(doc: dict[str, Any], m: int | None, prizes: dict[str, int | None],
                            pools: list[PoolCounts], pool_size: int | None = None,
                            most: list[PoolCounts] | None = None) -> None:
    """UnusableInput naming the first field of the spec's `[packs]` (printed: `m` the tickets of a book)
    or `[blocks]` (eInstant: `m` None, the block read from `shares`; `pool_size` its pools' shares) that
    asks nothing or that some pool's counts cannot meet. `prizes`: every winning tier's id and prize
    (None: an eInstant's, which differs from pool to pool). A split order (docs/new-game.md 2b, "Pack
    parameters beside a split") gives `pools` with every share rounded down and `most` with every share
    rounded up: each parameter is proved against both."""
    sign = sign_of(doc)  # the game's currency's, in every amount named
    table = "packs" if m is not None else "blocks"
    raw = doc.get(table)
    if not isinstance(raw, dict):
        return  # none: the default neighbour rule (not a table: shapes.py refuses it)
    if not raw:
        default = "the default neighbour rule holds without it" if table == "packs" else \
            "the neighbour rule over consecutive serials holds without it"
        raise _fail(table, f"an empty table says nothing ({default}); give a parameter or leave it out")
    if m is None:
        if "shares" not in raw:
            _no_blocks(raw)
            return
        m, size = raw["shares"], pool_size or 0
        if not 2 <= m <= size or size % m:
            raise _fail("blocks.shares", f"{m} does not divide the pool of {size:,} shares into blocks of "
                                         "two or more (a block is whole consecutive serials)")
    lo, hi = _winners(raw, table, m)
    floor: dict[str, int] = {}  # pool id -> the least prize money of a pack
    if "min_prize_value" in raw:
        cents = money(raw["min_prize_value"], "packs.min_prize_value", sign)
        if cents <= 0:
            raise _fail("packs.min_prize_value", "must be more than nothing")
        floor = {p.id: cents for p in pools}
    if "min_prize_times" in raw:
        times = Decimal(raw["min_prize_times"].strip())
        if times <= 0:
            raise _fail("blocks.min_prize_times", "must be more than nothing")
        for p in pools:
            if times * p.price_cents != int(times * p.price_cents):
                raise _fail("blocks.min_prize_times", f"{times} x the share price of pool {p.id} "
                                                      f"({_cents(p.price_cents, sign)}) is not whole cents")
            floor[p.id] = int(times * p.price_cents)
    if table == "blocks":
        for key in ("caps", "spacing"):
            for where, entry in _entries(raw, key, table):
                if "prize" in entry:
                    raise _fail(f"{where}.prize", "an eInstant's prizes differ from pool to pool: name the "
                                                  "tiers (`tiers = [...]`)")
    caps: list[tuple[str, tuple[str, ...], int]] = []
    for where, entry in _entries(raw, "caps", table):
        tiers = _tiers(entry, where, prizes, sign)
        if entry["at_most"] >= m:
            raise _fail(f"{where}.at_most", f"{entry['at_most']} asks nothing (a {table[:-1]} holds {m} "
                                            "tickets); leave the cap out")
        _once(entry, where, tiers, caps, "cap", "the lowest at_most")
        caps.append((where, tiers, entry["at_most"]))
    spacing: list[tuple[str, tuple[str, ...], int]] = []
    for where, entry in _entries(raw, "spacing", table):
        distance = entry["min_distance"]
        if not 2 <= distance <= m:
            raise _fail(f"{where}.min_distance", f"must be 2 (never back to back) to {m} (a {table[:-1]}), "
                                                 f"not {distance}")
        tiers = _tiers(entry, where, prizes, sign)
        _once(entry, where, tiers, spacing, "spacing rule", "the largest min_distance")
        spacing.append((where, tiers, distance))
    for p in pools:
        _possible(table, m, p, (lo, hi), floor.get(p.id), caps, spacing,
                  " when every share rounds down" if most else "", sign)
    for p in most or []:
        _possible(table, m, p, (lo, hi), floor.get(p.id), caps, spacing, " when every share rounds up", sign)


def _possible(table: str, m: int, pool: PoolCounts, winners: tuple[int | None, int | None], floor: int | None,
              caps: list[tuple[str, tuple[str, ...], int]], spacing: list[tuple[str, tuple[str, ...], int]],
              when: str = "", sign: str = "$") -> None:
    """docs/new-game.md 2b: a pool's counts spread over its packs (or blocks) within every rule (`when`:
    the split's rounding these counts are, said after them; `sign`: the game's currency's)."""
    packs = pool.tickets // m
    name = f"pool {pool.id} ({packs:,} {table} of {m})"
    held = sum(pool.counts.values())
    lo, hi = winners
    if lo is not None and held < packs * lo:
        raise _fail(f"{table}.min_winners", f"{name} has {held:,} winners{when}, fewer than {lo} x "
                                            f"{packs:,} = {packs * lo:,}")
    if hi is not None and held > packs * hi:
        raise _fail(f"{table}.max_winners", f"{name} has {held:,} winners{when}, more than {hi} x "
                                            f"{packs:,} = {packs * hi:,}")
    if floor is not None and pool.prize_cents < packs * floor:
        field = "min_prize_value" if table == "packs" else "min_prize_times"
        least = f"{_cents(floor, sign)} x {packs:,} = {_cents(packs * floor, sign)}"
        paid = _cents(pool.prize_cents, sign)
        raise _fail(f"{table}.{field}", f"{name} pays {paid} in all{when}, less than {least}")
    for where, tiers, at_most in caps:
        n = sum(pool.counts[t] for t in tiers)
        if n > packs * at_most:
            raise _fail(f"{where}.at_most", f"{name} has {n:,} tickets of tiers {', '.join(tiers)}{when}: "
                                            f"more than {at_most} x {packs:,} packs = {packs * at_most:,}")
    for where, tiers, distance in spacing:
        n = sum(pool.counts[t] for t in tiers)
        room = (m - 1) // distance + 1  # the most a pack holds `distance` apart: at 0, d, 2d, ...
        if n > packs * room:
            raise _fail(f"{where}.min_distance", f"{name} has {n:,} tickets of tiers "
                                                 f"{', '.join(tiers)}{when}: at most {room} fit in a pack "
                                                 f"{distance} apart, {packs * room:,} in the pool")
