"""A printed spec's `[packs]` table (docs/new-game.md, "Pack parameters"), read with tomllib alone
for audit/steps/packs.py, and the same parameters as a manifest records them (`print.packs`,
docs/manifest.md). A run whose manifest has no `print.packs` (an older run) and no spec given, or a
spec with no `[packs]`, is held to the default neighbour rule alone (consecutive tickets of a pack
never show identical play data). An eInstant's `[blocks]` (format 1; the manifest's `blocks`) states
the same rules per block of `shares` consecutive serials; without `shares` (or without `[blocks]`) an
eInstant's rule is the neighbour rule over every pair of consecutive serials ("across blocks"), or
none (`neighbours = "off"`). An eInstant run whose manifest has no `blocks` was made before eInstants
had a default rule: it has none (NO_BLOCKS).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from audit.errors import UnusableInput
from audit.read.codehash import CODE_HASH
from audit.read.specs.money import money, sign_of

__all__ = ["DEFAULT_RULES", "EINSTANT_RULES", "NO_BLOCKS", "PackCap", "PackRules", "PackSpacing", "for_pool",
           "manifest_packs", "read_blocks", "read_packs"]


@dataclass(frozen=True)
class PackCap:
    """At most `at_most` tickets per pack of the tiers `tiers`, or of prize `prize_cents`."""

    label: str
    at_most: int
    tiers: tuple[str, ...] = ()
    prize_cents: int | None = None


@dataclass(frozen=True)
class PackSpacing:
    """Tickets of the tiers (or prize) at least `min_distance` apart within a pack."""

    label: str
    min_distance: int
    tiers: tuple[str, ...] = ()
    prize_cents: int | None = None


@dataclass(frozen=True)
class PackRules:
    across: bool = False  # the neighbour rule also spans the boundary of consecutive packs
    neighbours: bool = True  # False: the spec turns the neighbour rule off (`neighbours = "off"`)
    min_winners: int | None = None
    max_winners: int | None = None
    min_prize_cents: int | None = None
    caps: tuple[PackCap, ...] = ()
    spacing: tuple[PackSpacing, ...] = ()
    size: int | None = None  # an eInstant's block of serials (None: a printed game's book, or no blocks)
    min_prize_times: Decimal | None = None  # an eInstant's floor: this many times the share price
    einstant: bool = False  # an eInstant's rules (with `size` None: no blocks, the rule over the pool)

    @property
    def composition(self) -> bool:
        return (self.min_winners is not None or self.max_winners is not None
                or self.min_prize_cents is not None or self.min_prize_times is not None
                or bool(self.caps) or bool(self.spacing))

    @property
    def unit(self) -> str:
        """What a pack is called in messages."""
        return "book" if self.table == "packs" else "block"

    @property
    def table(self) -> str:
        """The spec's table of these rules: `packs` (a printed game) or `blocks` (an eInstant)."""
        return "blocks" if self.einstant or self.size is not None else "packs"


def for_pool(rules: PackRules, price_cents: int) -> PackRules:
    """The rules of one pool: an eInstant's floor in cents at the pool's share price."""
    if rules.min_prize_times is None:
        return rules
    floor = rules.min_prize_times * price_cents
    if floor != floor.to_integral_value():
        raise UnusableInput(f"blocks.min_prize_times: {rules.min_prize_times} x {price_cents} cents is not "
                            "whole cents")
    return replace(rules, min_prize_cents=int(floor), min_prize_times=None)


DEFAULT_RULES = PackRules()
EINSTANT_RULES = PackRules(across=True, einstant=True)  # an eInstant's default: every consecutive pair
NO_BLOCKS = PackRules(neighbours=False, einstant=True)  # an eInstant run made before it had a default
_FIELDS = {"neighbours", "min_winners", "max_winners", "min_prize_value", "caps", "spacing"}
_BLOCK_FIELDS = {"shares", "neighbours", "min_winners", "max_winners", "min_prize_times", "caps", "spacing"}
_BLOCK_NEIGHBOURS = ("within blocks", "across blocks", "off")


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UnusableInput(f"{where}: must be a whole number, not {value!r}")
    return value


def _which(entry: dict[str, Any], where: str, sign: str) -> tuple[tuple[str, ...], int | None]:
    if ("tiers" in entry) == ("prize" in entry):
        raise UnusableInput(f"{where}: names `tiers` or `prize`, one of them")
    if "prize" in entry:
        return (), money(entry["prize"], f"{where}.prize", sign)
    tiers = entry["tiers"]
    if not isinstance(tiers, list) or not tiers or not all(isinstance(t, str) for t in tiers):
        raise UnusableInput(f"{where}.tiers: must be a non-empty list of tier ids")
    return tuple(tiers), None


def _shares(value: object, where: str) -> int:
    size = _whole(value, where)
    if size < 2:
        raise UnusableInput(f"{where}: a block is two or more shares, not {size}")
    return size


def _times(value: object, where: str) -> Decimal:
    if not isinstance(value, str):
        raise UnusableInput(f"{where}: must be a decimal string, not {value!r}")
    try:
        times = Decimal(value)
    except InvalidOperation:
        raise UnusableInput(f"{where}: {value!r} is not a decimal number") from None
    if not times.is_finite() or times <= 0:
        raise UnusableInput(f"{where}: {value!r} must be more than nothing")
    return times


def read_blocks(doc: dict[str, Any]) -> PackRules:
    """The rules of a format-1 (eInstant) spec's `[blocks]` (the neighbour rule over the pool's
    consecutive serials when it has none, or a `[blocks]` of `neighbours` alone)."""
    raw = doc.get("blocks", {})
    if "blocks" in doc and raw == {}:
        raise UnusableInput("blocks: an empty table says nothing (the neighbour rule over consecutive "
                            "serials holds without it)")
    _not_zero(raw, "blocks")
    _asks_something(raw, "blocks", raw.get("shares") if isinstance(raw, dict) else None)
    if not isinstance(raw, dict) or set(raw) - _BLOCK_FIELDS:
        raise UnusableInput(f"blocks: a table of shares and optionally "
                            f"{', '.join(sorted(_BLOCK_FIELDS - {'shares'}))}")
    neighbours = raw.get("neighbours", "across blocks")
    if neighbours not in _BLOCK_NEIGHBOURS:
        raise UnusableInput(f"blocks.neighbours: {neighbours!r}")
    if "shares" not in raw:
        if set(raw) - {"neighbours"} or neighbours == "within blocks":
            raise UnusableInput(f"blocks: {', '.join(sorted(set(raw) - {'neighbours'})) or 'within blocks'} "
                                "needs blocks.shares")
        return EINSTANT_RULES if neighbours == "across blocks" else NO_BLOCKS
    rules = _pack_rules({k: v for k, v in raw.items()
                         if k not in ("shares", "neighbours", "min_prize_times")}, sign_of(doc))
    to_blocks = "packs.", "blocks."
    return replace(rules, across=neighbours == "across blocks", neighbours=neighbours != "off",
                   size=_shares(raw["shares"], "blocks.shares"), einstant=True,
                   caps=tuple(replace(c, label=c.label.replace(*to_blocks)) for c in rules.caps),
                   spacing=tuple(replace(r, label=r.label.replace(*to_blocks)) for r in rules.spacing),
                   min_prize_times=_times(raw["min_prize_times"], "blocks.min_prize_times")
                   if "min_prize_times" in raw else None)


def read_packs(doc: dict[str, Any]) -> PackRules:
    """The rules of a format-2 spec's `[packs]` (the default rules when it has none)."""
    raw = doc.get("packs")
    if raw is None:
        return DEFAULT_RULES
    if raw == {}:
        raise UnusableInput("packs: an empty table says nothing (the default neighbour rule holds without "
                            "it)")
    _not_zero(raw, "packs")
    printed = doc.get("printed")
    first, last = (printed.get("first_ticket"), printed.get("last_ticket")) \
        if isinstance(printed, dict) else (None, None)
    _asks_something(raw, "packs", last - first + 1 if type(first) is int and type(last) is int else None)
    return _pack_rules(raw, sign_of(doc))


def _not_zero(raw: object, table: str) -> None:
    """`min_winners = 0` asks nothing of a pack or block: refused as poolgen's loader refuses it
    (docs/new-game.md, section 2b)."""
    if isinstance(raw, dict) and type(raw.get("min_winners")) is int and raw["min_winners"] == 0:
        raise UnusableInput(f"{table}.min_winners: 0 asks nothing (every {table[:-1]} holds at least 0 "
                            "winners)")


def _asks_something(raw: object, table: str, size: object) -> None:
    """An empty `caps` or `spacing`, `max_winners` of a whole pack or block and a cap of one or more
    (`size`, when known) ask nothing: refused as poolgen's loader refuses them (docs/new-game.md 2b)."""
    if not isinstance(raw, dict):
        return
    for key in ("caps", "spacing"):
        if raw.get(key) == []:
            raise UnusableInput(f"{table}.{key}: an empty list asks nothing")
    if type(size) is not int:
        return
    if type(raw.get("max_winners")) is int and raw["max_winners"] == size:
        raise UnusableInput(f"{table}.max_winners: {size} asks nothing (a {table[:-1]} holds {size} tickets)")
    for i, cap in enumerate(raw.get("caps", []) if isinstance(raw.get("caps"), list) else []):
        if isinstance(cap, dict) and type(cap.get("at_most")) is int and cap["at_most"] >= size:
            raise UnusableInput(f"{table}.caps[{i}].at_most: {cap['at_most']} asks nothing (a {table[:-1]} "
                                f"holds {size} tickets)")


def _pack_rules(raw: Any, sign: str) -> PackRules:
    """The rules of a `[packs]` table, or of a `[blocks]` table's pack fields."""
    if not isinstance(raw, dict) or set(raw) - _FIELDS:
        raise UnusableInput(f"packs: a table of {', '.join(sorted(_FIELDS))}")
    neighbours = raw.get("neighbours", "within packs")
    if neighbours not in ("within packs", "across packs", "off"):
        raise UnusableInput(f"packs.neighbours: {neighbours!r}")
    caps, spacing = [], []
    for i, entry in enumerate(raw.get("caps", [])):
        where = f"packs.caps[{i}]"
        tiers, prize = _which(entry, where, sign)
        caps.append(PackCap(where, _whole(entry["at_most"], f"{where}.at_most"), tiers, prize))
    for i, entry in enumerate(raw.get("spacing", [])):
        where = f"packs.spacing[{i}]"
        tiers, prize = _which(entry, where, sign)
        spacing.append(PackSpacing(where, _whole(entry["min_distance"], f"{where}.min_distance"), tiers,
                                   prize))
    return PackRules(
        across=neighbours == "across packs", neighbours=neighbours != "off",
        min_winners=_whole(raw["min_winners"], "packs.min_winners") if "min_winners" in raw else None,
        max_winners=_whole(raw["max_winners"], "packs.max_winners") if "max_winners" in raw else None,
        min_prize_cents=money(raw["min_prize_value"], "packs.min_prize_value", sign)
        if "min_prize_value" in raw else None,
        caps=tuple(caps), spacing=tuple(spacing))


_RECORDED = {"neighbours", "min_winners", "max_winners", "min_prize_cents", "caps", "spacing"}


def _recorded(entries: object, where: str, bound: str) -> list[tuple[str, tuple[str, ...], int]]:
    """(label, tiers, bound) of each of a manifest's `caps` or `spacing` entries."""
    if not isinstance(entries, list) or not entries:
        raise UnusableInput(f"{where}: must be a non-empty list of tables")
    out = []
    for i, entry in enumerate(entries):
        at = f"{where}[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"tiers", bound}:
            raise UnusableInput(f"{at}: must be a table of tiers and {bound}")
        tiers = entry["tiers"]
        if not isinstance(tiers, list) or not tiers or not all(isinstance(t, str) for t in tiers):
            raise UnusableInput(f"{at}.tiers: must be a non-empty list of tier ids")
        label = f"packs.{where.rsplit('.', 1)[-1]}[{i}]"
        out.append((label, tuple(tiers), _whole(entry[bound], f"{at}.{bound}")))
    return out


def _coherent(doc: dict[str, Any], where: str, size: int | None, lo: int | None, hi: int | None,
              caps: list[PackCap], spacing: list[PackSpacing]) -> None:
    """Refuse, naming the field, recorded parameters the spec loader would have refused
    (docs/new-game.md 2b): a block that does not divide a pool, min_winners above max_winners, a
    spacing outside 2..the block, a cap or spacing naming a tier no pool lists."""
    pools = [p for p in doc.get("pools", []) if isinstance(p, dict)]
    if size is not None:
        for p in pools:
            tickets = p.get("tickets")
            if isinstance(tickets, int) and not isinstance(tickets, bool) and tickets % size:
                raise UnusableInput(f"{where}.shares: {size:,} does not divide pool {p.get('id')}'s "
                                    f"{tickets:,} shares")
    if lo is not None and hi is not None and lo > hi:
        raise UnusableInput(f"{where}.min_winners: {lo} is above max_winners ({hi})")
    known = {t.get("id") for p in pools for t in p.get("tiers", []) if isinstance(t, dict)}
    for i, rule in enumerate(spacing):
        if rule.min_distance < 2 or (size is not None and rule.min_distance > size):
            top = f"{size:,}" if size is not None else "a pack"
            raise UnusableInput(f"{where}.spacing[{i}].min_distance: {rule.min_distance} is outside 2..{top}")
    named: list[tuple[str, tuple[str, ...]]] = [(f"caps[{i}]", c.tiers) for i, c in enumerate(caps)]
    named += [(f"spacing[{i}]", r.tiers) for i, r in enumerate(spacing)]
    for label, tiers in named:
        for t in tiers:
            if t not in known:
                raise UnusableInput(f"{where}.{label}.tiers: {t!r} is no pool's tier")


def _older(doc: dict[str, Any], field: str) -> None:
    """A manifest without `print.packs` (or an eInstant's without `blocks`) must be of a run made before
    manifests recorded them (2026-12-02): one whose code hash is v2 (docs/provenance.md, since 2026-12-03)
    was made by a generator that writes them, so their absence is a deletion (docs/manifest.md)."""
    code = (doc.get("tool") or {}).get("code")
    if isinstance(code, dict) and code.get("algorithm") == CODE_HASH:
        raise UnusableInput(f"manifest.json: {field}: missing (tool.code is poolgen/code/v2: the generator "
                            f"that made the run records {field})")


def manifest_packs(doc: dict[str, Any]) -> PackRules | None:
    """The pack parameters a printed run's manifest records (`print.packs`), or an eInstant run's
    block parameters (`blocks`: without `shares`, the neighbour rule over the pool alone); None when
    it records none (a run made before manifests recorded them: a code hash other than v2). A malformed
    entry, or a missing one in a v2 run, is refused."""
    printed = doc.get("print")
    blocks = "blocks" in doc
    if blocks:
        raw, where = doc["blocks"], "manifest.json: blocks"
    elif isinstance(printed, dict) and "packs" in printed:
        raw, where = printed["packs"], "manifest.json: print.packs"
    else:
        _older(doc, "blocks" if (doc.get("game") or {}).get("kind") == "einstant" else "print.packs")
        return None
    allowed = _RECORDED - {"min_prize_cents"} | {"shares", "min_prize_times"} if blocks else _RECORDED
    alone = blocks and isinstance(raw, dict) and "shares" not in raw  # an eInstant without blocks
    if (not isinstance(raw, dict) or set(raw) - allowed or "neighbours" not in raw
            or (not blocks and "shares" in raw) or (alone and set(raw) != {"neighbours"})):
        raise UnusableInput(f"{where}: a table of {'shares, ' if blocks else ''}neighbours and optionally "
                            f"{', '.join(sorted(allowed - {'neighbours', 'shares'}))}")
    neighbours = raw["neighbours"]
    if alone:  # the rule over the pool's consecutive serials, or none
        if neighbours not in ("across blocks", "off"):
            raise UnusableInput(f"{where}.neighbours: {neighbours!r} (without shares: across blocks or off)")
        return EINSTANT_RULES if neighbours == "across blocks" else NO_BLOCKS
    if blocks and neighbours in _BLOCK_NEIGHBOURS:
        neighbours = neighbours.replace("blocks", "packs")
    elif blocks or neighbours not in ("within packs", "across packs", "off"):
        raise UnusableInput(f"{where}.neighbours: {neighbours!r}")
    caps = [PackCap(label, bound, tiers) for label, tiers, bound
            in _recorded(raw["caps"], f"{where}.caps", "at_most")] if "caps" in raw else []
    spacing = [PackSpacing(label, bound, tiers) for label, tiers, bound
               in _recorded(raw["spacing"], f"{where}.spacing", "min_distance")] if "spacing" in raw else []
    whole = {k: _whole(raw[k], f"{where}.{k}") if k in raw else None
             for k in ("min_winners", "max_winners", "min_prize_cents")}
    prefix = "blocks." if blocks else "packs."
    size = _shares(raw["shares"], f"{where}.shares") if blocks else None
    _coherent(doc, where, size, whole["min_winners"], whole["max_winners"], caps, spacing)
    return PackRules(across=neighbours == "across packs", neighbours=neighbours != "off",
                     min_winners=whole["min_winners"], max_winners=whole["max_winners"],
                     min_prize_cents=whole["min_prize_cents"],
                     caps=tuple(replace(c, label=c.label.replace("packs.", prefix)) for c in caps),
                     spacing=tuple(replace(r, label=r.label.replace("packs.", prefix)) for r in spacing),
                     size=size, einstant=blocks,
                     min_prize_times=_times(raw["min_prize_times"], f"{where}.min_prize_times")
                     if "min_prize_times" in raw else None)
