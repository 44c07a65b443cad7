"""The `[packs]` table of a printed spec and the `[blocks]` table of an eInstant spec (docs/new-game.md,
"Pack parameters"): read, resolved to the game's tiers, and proved possible for every pool, or refused
in one line naming the field.

    [packs]
    neighbours = "within packs"      # default; or "across packs", or "off" (layouts too few)
    min_winners = 80                 # winners per pack, at least / at most
    max_winners = 110
    min_prize_value = "150.00"       # prizes per pack, at least
    caps = [ { tiers = ["100"], at_most = 1 } ]          # or { prize = "100.00", at_most = 1 }
    spacing = [ { tiers = ["20", "100"], min_distance = 2 } ]

    [blocks]                         # an eInstant: the same rules per block of consecutive serials
    shares = 100                     # the block; it divides the pool (required by every rule below)
    neighbours = "across blocks"     # default: every pair of consecutive serials; or "within blocks",
                                     # or "off"; without shares only "across blocks" or "off" (the
                                     # spec's whole [blocks] may be `neighbours = "off"`)
    min_prize_times = "20"           # prizes per block, at least this many times the share price
    # min_winners, max_winners, caps and spacing as above; caps and spacing name tiers (`prize` is
    # refused: an eInstant's prizes differ from pool to pool)

What is proved here is necessary for every pool (counts against packs); `poolgen check` then
exhibits one arrangement meeting every parameter (poolgen/check/packs.py), which proves it possible.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from poolgen.game.model import Pool, Tier
from poolgen.game.packs import Cap, Neighbours, Packs, Spacing
from poolgen.loader.reader import Reader
from poolgen.money import fmt_cents

__all__ = ["read_blocks", "read_packs"]

_PACKS = {"neighbours", "min_winners", "max_winners", "min_prize_value", "caps", "spacing"}
_BLOCKS = {"shares", "neighbours", "min_winners", "max_winners", "min_prize_times", "caps", "spacing"}
_NEIGHBOURS: dict[str, Neighbours | None] = {"within packs": "within packs", "across packs": "across packs",
                                             "off": None}
_BLOCK_NEIGHBOURS: dict[str, Neighbours | None] = {"within blocks": "within packs",
                                                   "across blocks": "across packs", "off": None}


def read_packs(r: Reader, doc: dict[str, Any], tiers: tuple[Tier, ...], per_book: int,
               pools: Sequence[Pool], most: Sequence[Pool] = ()) -> Packs:
    """The game's pack parameters (the default neighbour rule when the spec has no `[packs]`). A split
    order (`most`: its pools with every share rounded up, `pools` with every share rounded down) has
    them proved for both: a minimum against the fewest a seed can draw, a maximum against the most
    (docs/new-game.md, section 2b)."""
    raw = doc.get("packs", {})
    if not isinstance(raw, dict):
        raise r.fail("packs", "must be a table")
    _not_empty(r, doc, "packs", "the default neighbour rule holds without it")
    r.known(raw, "packs", _PACKS)
    written = _neighbours(r, raw, "packs", "within packs")
    if written not in _NEIGHBOURS:
        raise r.fail("packs.neighbours", f"must be \"within packs\", \"across packs\" or \"off\", "
                                         f"not {written!r}")
    lo, hi = _winners(r, raw, "packs", per_book)
    value = r.money(raw, "min_prize_value", "packs", required=False)
    if value is not None and value <= 0:
        raise r.fail("packs.min_prize_value", "must be more than nothing")
    packs = Packs(neighbours=_NEIGHBOURS[written], min_winners=lo, max_winners=hi, min_prize_cents=value,
                  caps=tuple(_caps(r, raw, tiers, per_book)),
                  spacing=tuple(_spacing(r, raw, tiers, per_book)))
    for pool in pools:
        _possible(r, packs, pool, per_book, when=" when every share rounds down" if most else "")
    for pool in most:
        _possible(r, packs, pool, per_book, when=" when every share rounds up")
    return packs


def read_blocks(r: Reader, doc: dict[str, Any], tiers: tuple[Tier, ...], pool_shares: int,
                pools: Sequence[Pool]) -> Packs:
    """An eInstant's `[blocks]`: the pack parameters per block of `shares` consecutive serials; without
    `[blocks]` (or with a `[blocks]` of `neighbours` alone) the neighbour rule over every pair of
    consecutive serials of the pool, unless `neighbours = "off"`."""
    raw = doc.get("blocks", {})
    if not isinstance(raw, dict):
        raise r.fail("blocks", "must be a table")
    _not_empty(r, doc, "blocks", "the neighbour rule over consecutive serials holds without it")
    r.known(raw, "blocks", _BLOCKS)
    if "shares" not in raw:
        return _no_blocks(r, raw)
    size = r.count(raw, "shares", "blocks")
    if not 2 <= size <= pool_shares or pool_shares % size:
        raise r.fail("blocks.shares", f"{size} does not divide the pool of {pool_shares:,} shares into "
                                      "blocks of two or more (a block is whole consecutive serials)")
    written = _neighbours(r, raw, "blocks", "across blocks")
    if written not in _BLOCK_NEIGHBOURS:
        raise r.fail("blocks.neighbours", f"must be \"within blocks\", \"across blocks\" or \"off\", "
                                          f"not {written!r}")
    lo, hi = _winners(r, raw, "blocks", size)
    times = None
    if "min_prize_times" in raw:
        times = r.decimal(raw, "min_prize_times", "blocks")
        if times <= 0:
            raise r.fail("blocks.min_prize_times", "must be more than nothing")
        for pool in pools:
            if times * pool.price_cents != int(times * pool.price_cents):
                raise r.fail("blocks.min_prize_times", f"{times} x the share price of pool {pool.id} "
                                                       f"({fmt_cents(pool.price_cents, r.currency)}) is not "
                                                       "whole cents")
    for key in ("caps", "spacing"):
        for where, entry in _entries(r, raw, key, "blocks"):
            if "prize" in entry:
                raise r.fail(f"{where}.prize", "an eInstant's prizes differ from pool to pool: name the "
                                               "tiers (`tiers = [...]`)")
    packs = Packs(neighbours=_BLOCK_NEIGHBOURS[written], min_winners=lo, max_winners=hi,
                  caps=tuple(_caps(r, raw, tiers, size, "blocks")),
                  spacing=tuple(_spacing(r, raw, tiers, size, "blocks")), block=size, min_prize_times=times,
                  einstant=True)
    for pool in pools:
        _possible(r, packs, pool, size, "blocks")
    return packs


def _no_blocks(r: Reader, raw: dict[str, Any]) -> Packs:
    """An eInstant without blocks: the neighbour rule over the pool's consecutive serials, or "off"
    (every other field needs `shares`)."""
    for key in sorted(set(raw) - {"neighbours"}):
        raise r.fail("blocks.shares", f"missing field: blocks.{key} is a rule per block, which needs the "
                                      "block's size")
    written = _neighbours(r, raw, "blocks", "across blocks")
    if written == "within blocks":
        raise r.fail("blocks.neighbours", "\"within blocks\" needs blocks.shares; without blocks the "
                                          "rule is \"across blocks\" (every pair of consecutive serials) or "
                                          "\"off\"")
    if written not in _BLOCK_NEIGHBOURS:
        raise r.fail("blocks.neighbours", f"must be \"across blocks\" or \"off\" without blocks.shares, "
                                          f"not {written!r}")
    return Packs(neighbours=_BLOCK_NEIGHBOURS[written], einstant=True)


def _neighbours(r: Reader, raw: dict[str, Any], table: str, default: str) -> str:
    """The neighbour rule as written, `default` only when the field is absent (an empty string is
    refused with the other unknown values, as audit reads it)."""
    written = r.get(raw, "neighbours", table, str, required=False)
    return default if written is None else written


def _not_empty(r: Reader, doc: dict[str, Any], table: str, default: str) -> None:
    """An empty `[packs]` or `[blocks]` says nothing the game does not do without it: refused, as a field
    nothing uses is (docs/new-game.md, section 2b)."""
    if doc.get(table) == {}:
        raise r.fail(table, f"an empty table says nothing ({default}); give a parameter or leave it out")


def _winners(r: Reader, raw: dict[str, Any], table: str, m: int) -> tuple[int | None, int | None]:
    lo = _whole(r, raw, "min_winners", m, table)
    if lo == 0:
        raise r.fail(f"{table}.min_winners", f"0 asks nothing (every {table[:-1]} holds at least 0 winners); "
                                             "leave it out")
    hi = _whole(r, raw, "max_winners", m, table)
    if lo is not None and hi is not None and lo > hi:
        raise r.fail(f"{table}.max_winners", f"{hi} is below min_winners {lo}")
    if hi == m:
        raise r.fail(f"{table}.max_winners", f"{m} asks nothing (a {table[:-1]} holds {m} tickets); "
                                             "leave it out")
    return lo, hi


def _whole(r: Reader, raw: dict[str, Any], key: str, per_book: int, table: str) -> int | None:
    if key not in raw:
        return None
    value = r.count(raw, key, table)
    if value > per_book:
        raise r.fail(f"{table}.{key}", f"{value} is more than a {table[:-1]}'s {per_book} tickets")
    return value


def _tier_ids(r: Reader, entry: dict[str, Any], where: str, tiers: tuple[Tier, ...]) -> tuple[str, ...]:
    """The tiers an entry names: `tiers = [ids]`, or `prize = "amount"` (every tier of that prize)."""
    if ("tiers" in entry) == ("prize" in entry):
        raise r.fail(where, "name the tiers (`tiers = [...]`) or one prize level (`prize = \"...\"`), "
                            "not both or neither")
    known = [t.id for t in tiers]
    if "prize" in entry:
        cents = r.money(entry, "prize", where)
        ids = tuple(t.id for t in tiers if t.cents == cents)
        if not ids:
            raise r.fail(f"{where}.prize", f"no tier pays {fmt_cents(cents, r.currency)}")
        return ids
    listed = r.get(entry, "tiers", where, list)
    if not listed or any(not isinstance(t, str) for t in listed):
        raise r.fail(f"{where}.tiers", "must be a non-empty list of tier ids")
    for t in listed:
        if t not in known:
            raise r.fail(f"{where}.tiers", f"no tier {t!r} (tiers: {', '.join(known)})")
    if len(set(listed)) != len(listed):
        raise r.fail(f"{where}.tiers", "names a tier twice")
    return tuple(listed)


def _entries(r: Reader, raw: dict[str, Any], key: str,
             table: str = "packs") -> list[tuple[str, dict[str, Any]]]:
    listed = raw.get(key, [])
    if not isinstance(listed, list) or any(not isinstance(e, dict) for e in listed):
        raise r.fail(f"{table}.{key}", "must be a list of tables")
    if key in raw and not listed:
        raise r.fail(f"{table}.{key}", "an empty list asks nothing; give a rule or leave it out")
    return [(f"{table}.{key}[{i}]", e) for i, e in enumerate(listed)]


def _caps(r: Reader, raw: dict[str, Any], tiers: tuple[Tier, ...], m: int, table: str = "packs") -> list[Cap]:
    out: list[Cap] = []
    for where, entry in _entries(r, raw, "caps", table):
        r.known(entry, where, {"tiers", "prize", "at_most"})
        ids, at_most = _tier_ids(r, entry, where, tiers), r.count(entry, "at_most", where)
        if at_most >= m:
            raise r.fail(f"{where}.at_most", f"{at_most} asks nothing (a {table[:-1]} holds {m} tickets); "
                                             "leave the cap out")
        _once(r, entry, where, ids, [(c.label, c.tiers) for c in out], "cap", "the lowest at_most")
        out.append(Cap(ids, at_most, where))
    return out


def _once(r: Reader, entry: dict[str, Any], where: str, ids: tuple[str, ...],
          earlier: list[tuple[str, tuple[str, ...]]], kind: str, asks: str) -> None:
    """A second rule of a kind on the same tiers asks nothing the first and it do not ask as one."""
    for label, tiers in earlier:
        if set(tiers) == set(ids):
            raise r.fail(f"{where}.{'prize' if 'prize' in entry else 'tiers'}",
                         f"the tiers of {label} again: one {kind} a set of tiers ({asks} is the rule)")


def _spacing(r: Reader, raw: dict[str, Any], tiers: tuple[Tier, ...], per_book: int,
             table: str = "packs") -> list[Spacing]:
    out: list[Spacing] = []
    for where, entry in _entries(r, raw, "spacing", table):
        r.known(entry, where, {"tiers", "prize", "min_distance"})
        distance = r.count(entry, "min_distance", where)
        if not 2 <= distance <= per_book:
            raise r.fail(f"{where}.min_distance", f"must be 2 (never back to back) to {per_book} (a "
                                                  f"{table[:-1]}), not {distance}")
        ids = _tier_ids(r, entry, where, tiers)
        _once(r, entry, where, ids, [(x.label, x.tiers) for x in out], "spacing rule",
              "the largest min_distance")
        out.append(Spacing(ids, distance, where))
    return out


def _possible(r: Reader, packs: Packs, pool: Pool, m: int, table: str = "packs", when: str = "") -> None:
    """What every pool must allow: its counts spread over its packs within each parameter (`when`: the
    split's rounding these counts are, said after them)."""
    books = pool.books or pool.tickets // m
    count = {t.id: t.count for t in pool.tiers}
    name = f"pool {pool.id} ({books:,} {table} of {m})"
    lo, hi = packs.min_winners, packs.max_winners
    if lo is not None and pool.winners < books * lo:
        raise r.fail(f"{table}.min_winners", f"{name} has {pool.winners:,} winners{when}, fewer than "
                                             f"{lo} x {books:,} = {books * lo:,}")
    if hi is not None and pool.winners > books * hi:
        raise r.fail(f"{table}.max_winners", f"{name} has {pool.winners:,} winners{when}, more than "
                                             f"{hi} x {books:,} = {books * hi:,}")
    floor = packs.floor_cents(pool.price_cents)
    if floor is not None and pool.prize_cost_cents < books * floor:
        field = "min_prize_times" if packs.min_prize_times is not None else "min_prize_value"
        raise r.fail(f"{table}.{field}",
                     f"{name} pays {fmt_cents(pool.prize_cost_cents, r.currency)} in all{when}, less than "
                     f"{fmt_cents(floor, r.currency)} x {books:,} = {fmt_cents(books * floor, r.currency)}")
    for cap in packs.caps:
        held = sum(count[t] for t in cap.tiers)
        if held > books * cap.at_most:
            raise r.fail(f"{cap.label}.at_most", f"{name} has {held:,} tickets of tiers "
                                                 f"{', '.join(cap.tiers)}{when}: more than {cap.at_most} x "
                                                 f"{books:,} packs = {books * cap.at_most:,}")
    for rule in packs.spacing:
        held = sum(count[t] for t in rule.tiers)
        room = (m - 1) // rule.min_distance + 1  # the most a pack can hold this far apart
        if held > books * room:
            raise r.fail(f"{rule.label}.min_distance",
                         f"{name} has {held:,} tickets of tiers {', '.join(rule.tiers)}{when}: at most "
                         f"{room} fit in a pack {rule.min_distance} apart, {books * room:,} in the pool")
