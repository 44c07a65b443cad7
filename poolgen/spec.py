"""Game specs: TOML files in `specs/`, loaded into frozen objects that are valid by construction.

`load_spec(path)` raises `SpecError("<file>: <field>: <reason>")` for anything it cannot accept:
an unknown or missing field, a float where money belongs, a negative or non-integer count, a count
that does not fit in or divide into a pool, an undeclared symbol, a duplicate tier.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from poolgen.errors import SpecError
from poolgen.files.read import display, parse_toml, read_input
from poolgen.limits import MAX_SPEC_BYTES
from poolgen.money import parse_decimal, parse_printed
from poolgen.spec_bounds import bound_einstant_lists, bound_pools, bound_sizes, bound_values
from poolgen.spec_game import rules_or_style
from poolgen.spec_reader import Reader as _Reader

KINDS = ("printed", "einstant")

_TOP = {"format", "game", "printed", "einstant", "play", "published", "tiers", "symbols", "layout"}
_GAME = {"name", "number", "regulation", "rules", "id", "style", "kind", "source"}
_EINSTANT = {"denominations", "play_areas", "pool_shares", "order_shares", "counts_per"}
_PUBLISHED = {"winners", "subtotal_cost", "total_cost", "odds", "other_costs", "losers",
              "losers_odds"}
_SYMBOL = {"group", "code", "symbol", "caption", "value"}
_EINSTANT_TIER = {"multiplier", "count", "odds", "i_amounts", "i_count", "i_odds"}


@dataclass(frozen=True)
class Symbol:
    """One play or prize symbol of the regulation's (b) table."""

    group: str
    code: str
    symbol: str
    caption: str
    value_cents: int | None


@dataclass(frozen=True)
class Tier:
    """One prize tier as the spec states it; `count` is per `counts_per` (order or pool)."""

    id: str
    index: int
    count: int
    prize_cents: int | None  # printed games: the prize
    multiplier: Decimal | None  # eInstants: prize = multiplier x denomination x play areas
    data: dict[str, Any] = field(compare=False, repr=False)  # the tier's table as written


@dataclass(frozen=True)
class PoolTier:
    """A tier's count and prize in one pool. Tier 0 of every pool is the losing tier."""

    id: str
    prize_cents: int
    count: int


@dataclass(frozen=True)
class Pool:
    """One prize pool to build: a printed pool of whole books, or one eInstant denomination."""

    id: str
    price_cents: int
    tickets: int
    tiers: tuple[PoolTier, ...]  # losing tier first, then the spec's tiers in order
    denomination_cents: int | None = None
    play_areas: int | None = None
    first_book: int | None = None  # printed games: books first_book .. first_book + books - 1
    books: int | None = None

    @property
    def winners(self) -> int:
        return sum(t.count for t in self.tiers[1:])

    @property
    def prize_cost_cents(self) -> int:
        return sum(t.count * t.prize_cents for t in self.tiers)


@dataclass(frozen=True)
class Spec:
    """A loaded game spec. Build it with `load_spec`."""

    path: Path
    sha256: str
    name: str
    number: int | None
    regulation: str
    rules: str
    kind: str
    source: str
    sales: dict[str, Any] = field(repr=False)
    play: dict[str, Any] = field(repr=False)
    published: dict[str, Any] = field(repr=False)
    layout: dict[str, Any] = field(repr=False)
    symbols: tuple[Symbol, ...] = field(repr=False)
    tiers: tuple[Tier, ...] = field(repr=False)
    pools: tuple[Pool, ...] = field(repr=False)
    styles: Any = field(default=None, repr=False, compare=False)  # format 2: spec_styles.StyledGame
    style: str | None = None  # a format-1 eInstant of a generic style (poolgen/styles/<style>.py)

    def symbols_in(self, group: str) -> tuple[Symbol, ...]:
        return tuple(s for s in self.symbols if s.group == group)

    def symbol(self, code: str) -> Symbol:
        for s in self.symbols:
            if s.code == code:
                return s
        raise KeyError(code)

    def pool(self, pool_id: str) -> Pool:
        for p in self.pools:
            if p.id == pool_id:
                return p
        known = ", ".join(p.id for p in self.pools)
        raise SpecError(f"{self.path.name}: no pool {pool_id!r} (pools: {known})")

    @property
    def tickets_per_book(self) -> int | None:
        if self.kind != "printed":
            return None
        return self.sales["last_ticket"] - self.sales["first_ticket"] + 1


def load_spec(path: Path | str) -> Spec:
    """Read and validate one spec file."""
    path = Path(path)
    r = _Reader(path)
    raw_bytes = read_input(path, "spec", SpecError, MAX_SPEC_BYTES)
    if display(path.name) != path.name:
        raise SpecError(f"{display(path)}: the file name is not UTF-8 text; rename the spec file")
    doc = parse_toml(raw_bytes, path.name, SpecError)
    bound_values(r, doc)

    fmt = doc.get("format")  # read before any field a format reads
    if fmt is None or isinstance(fmt, bool) or not isinstance(fmt, int) or fmt not in (1, 2):
        raise r.fail("format", "missing field" if fmt is None else
                     f"must be 1 or 2 (a game of play areas), not {fmt!r}")
    if fmt == 2:  # a game of generic play styles (poolgen/spec_styles.py)
        from poolgen.spec_styles import load_styled_spec

        return load_styled_spec(path, raw_bytes, doc)
    r.known(doc, "", _TOP)
    game = r.table(doc, "game", "game", _GAME)
    name = r.get(game, "name", "game", str)
    number = r.get(game, "number", "game", int, required=False)
    kind = r.get(game, "kind", "game", str)
    if kind not in KINDS:
        raise r.fail("game.kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    rules, style = rules_or_style(r, game, kind)  # format 1 is an eInstant of a generic style
    if "printed" in doc:
        raise r.fail("printed", "not used: an eInstant sells shares ([einstant]); a printed game is a "
                                "format = 2 spec")
    play = doc.get("play", {})  # the style reads and checks its own [play] table
    if not isinstance(play, dict):
        raise r.fail("play", "must be a table")
    layout = doc.get("layout", {})
    if not isinstance(layout, dict):
        raise r.fail("layout", "must be a table")
    published = r.table(doc, "published", "published", _PUBLISHED)
    _check_published(r, published)

    symbols = _symbols(r, doc)
    sales = r.table(doc, "einstant", "einstant", _EINSTANT)
    tiers = _einstant_tiers(r, doc)
    pools = _einstant_pools(r, sales, tiers)

    spec = Spec(
        path=path,
        sha256=hashlib.sha256(raw_bytes).hexdigest(),
        name=name,
        number=number,
        regulation=r.get(game, "regulation", "game", str),
        rules=rules,
        kind=kind,
        source=r.get(game, "source", "game", str),
        sales=sales,
        play=play,
        published=published,
        layout=layout,
        symbols=symbols,
        tiers=tiers,
        pools=pools,
        style=style,
    )
    # valid by construction: the style reads every parameter it needs now
    from poolgen.styles import einstant_module

    einstant_module(style).play_document(spec)
    return spec


def _check_published(r: _Reader, pub: dict) -> None:
    """The published figures as printed: counts are whole numbers, amounts and odds readable."""
    for key in ("winners", "losers"):
        if key in pub:
            r.count(pub, key, "published")
    for key in ("subtotal_cost", "total_cost"):
        _printed_amount(r, pub, key, "published")
    for key in ("odds", "losers_odds"):
        _printed_number(r, pub, key, "published")
    others = pub.get("other_costs", [])
    if not isinstance(others, list):
        raise r.fail("published.other_costs", "must be a list of { name, amount } tables")
    for j, c in enumerate(others):
        where = f"published.other_costs[{j}]"
        if not isinstance(c, dict):
            raise r.fail(where, "must be a table { name = ..., amount = ... }")
        r.known(c, where, {"name", "amount"})
        r.get(c, "name", where, str)
        _printed_amount(r, c, "amount", where, required=True)


def _printed(r: _Reader, table: dict, key: str, where: str, parse, required: bool = False):
    """A figure as printed, read by `parse` (None when absent and not required)."""
    if key not in table:
        if required:
            raise r.fail(f"{where}.{key}", "missing field")
        return None
    value = r.get(table, key, where, str)
    try:
        return parse(value)
    except ValueError as exc:
        raise r.fail(f"{where}.{key}", str(exc)) from None


def _printed_amount(r: _Reader, table: dict, key: str, where: str, required: bool = False) -> None:
    """An amount as printed; odd comma grouping is allowed here (the check reports it)."""
    _printed(r, table, key, where, parse_printed, required)


def _printed_number(r: _Reader, table: dict, key: str, where: str, required: bool = False) -> None:
    """A count or odds as printed: a positive decimal number."""
    number = _printed(r, table, key, where, parse_decimal, required)
    if number is not None and number <= 0:
        raise r.fail(f"{where}.{key}", f"{table[key]!r} is not a positive number")


def _symbols(r: _Reader, doc: dict) -> tuple[Symbol, ...]:
    raw = doc.get("symbols")
    if not isinstance(raw, list) or not raw:
        raise r.fail("symbols", "missing: a spec declares its symbols as [[symbols]]")
    out: list[Symbol] = []
    seen: set[str] = set()
    for i, s in enumerate(raw):
        where = f"symbols[{i}]"
        if not isinstance(s, dict):
            raise r.fail(where, "must be a table")
        r.known(s, where, _SYMBOL)
        code = r.get(s, "code", where, str)
        if code in seen:
            raise r.fail(f"{where}.code", f"duplicate symbol code {code!r}")
        seen.add(code)
        out.append(Symbol(
            group=r.get(s, "group", where, str),
            code=code,
            symbol=r.get(s, "symbol", where, str),
            caption=r.get(s, "caption", where, str, required=False) or "",
            value_cents=r.money(s, "value", where, required=False),
        ))
    return tuple(out)


def _tier_list(r: _Reader, doc: dict) -> list[dict]:
    raw = doc.get("tiers")
    if not isinstance(raw, list) or not raw:
        raise r.fail("tiers", "missing: a spec declares its prize tiers as [[tiers]]")
    for i, t in enumerate(raw):
        if not isinstance(t, dict):
            raise r.fail(f"tiers[{i}]", "must be a table")
    return raw


def _einstant_tiers(r: _Reader, doc: dict) -> tuple[Tier, ...]:
    out: list[Tier] = []
    seen: set[Decimal] = set()
    for i, t in enumerate(_tier_list(r, doc)):
        where = f"tiers[{i}]"
        r.known(t, where, _EINSTANT_TIER)
        mult = r.decimal(t, "multiplier", where)
        if mult == 0:
            raise r.fail(f"{where}.multiplier", "a prize tier must pay more than nothing "
                                                "(losers are [published].losers)")
        if mult in seen:
            raise r.fail(f"{where}.multiplier", f"duplicate tier: multiplier {mult} appears twice")
        seen.add(mult)
        _printed_number(r, t, "odds", where, required=True)
        _printed_number(r, t, "i_count", where)
        _printed_number(r, t, "i_odds", where)
        if "i_amounts" in t:
            amounts = r.get(t, "i_amounts", where, list)
            for j in range(len(amounts)):
                _printed_amount(r, {"a": amounts[j]}, "a", f"{where}.i_amounts[{j}]")
        out.append(Tier(id=f"m{mult.normalize():f}", index=i + 1, count=r.count(t, "count", where),
                        prize_cents=None, multiplier=mult, data=t))
    return tuple(out)


def _einstant_pools(r: _Reader, sales: dict, tiers: tuple[Tier, ...]) -> tuple[Pool, ...]:
    denoms_raw = r.get(sales, "denominations", "einstant", list)
    denoms = []
    for j, d in enumerate(denoms_raw):
        denoms.append(r.money({"d": d}, "d", f"einstant.denominations[{j}]"))
    areas = r.get(sales, "play_areas", "einstant", list)
    for j, a in enumerate(areas):
        if isinstance(a, bool) or not isinstance(a, int) or a < 1:
            raise r.fail(f"einstant.play_areas[{j}]", f"must be a whole number >= 1, not {a!r}")
    bound_einstant_lists(r, denoms, areas)
    size = r.count(sales, "pool_shares", "einstant")
    bound_sizes(r, "einstant", size, r.count(sales, "order_shares", "einstant"))
    if r.get(sales, "counts_per", "einstant", str) != "pool":
        raise r.fail("einstant.counts_per", "eInstant counts are per pool: write \"pool\"")
    for t in tiers:
        if "i_amounts" in t.data and len(t.data["i_amounts"]) != len(denoms):
            raise r.fail(f"tiers[{t.index - 1}].i_amounts",
                         f"{len(t.data['i_amounts'])} amounts for {len(denoms)} denominations")
    winners = sum(t.count for t in tiers)
    if winners > size:
        raise r.fail("tiers", f"{winners} winners per pool exceed the pool of {size} shares")
    pools = []
    for d in denoms:
        for a in areas:
            ptiers = [PoolTier("lose", 0, size - winners)]
            for t in tiers:
                cents = t.multiplier * d * a
                if cents != cents.to_integral_value():
                    raise r.fail(f"tiers[{t.index - 1}].multiplier",
                                 f"{t.multiplier} x {d} cents x {a} is not whole cents")
                ptiers.append(PoolTier(t.id, int(cents), t.count))
            pool_id = f"d{d // 100}.{d % 100:02d}" + (f"x{a}" if len(areas) > 1 else "")
            pools.append(Pool(id=pool_id, price_cents=d * a, tickets=size, tiers=tuple(ptiers),
                              denomination_cents=d, play_areas=a))
    bound_pools(r, "einstant", tuple(pools))
    return tuple(pools)
