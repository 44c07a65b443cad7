"""Format-2 specs: a game made of play areas, each of a generic play style (docs/new-game.md).

`load_spec` hands a `format = 2` document here. It yields the same `Spec`, `Tier` and `Pool` objects
as format 1 (so generate, verify, prove and report need nothing new), with `Spec.styles` holding the
`StyledGame`: the areas (each read by its style module, `poolgen/styles/`), every tier's wins, and
the manifest's `play` entry (docs/styles/play.md). Everything a style cannot lay out is refused
here, with one line naming the file and the field, so a spec that loads can be generated.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from poolgen.deliverables.settings import FIELDS as PRINT_FIELDS
from poolgen.deliverables.settings import read_print_settings
from poolgen.limits import (
    MAX_BOOK_TICKETS,
    MAX_GAME_NUMBER,
    MAX_MULTIPLIER,
    MAX_ORDER_BOOKS,
    MAX_TICKET_SPOTS,
)
from poolgen.spec import Pool, PoolTier, Spec, Symbol, Tier, _check_published, _Reader
from poolgen.spec_bounds import bound_pools, bound_sizes
from poolgen.styles import STYLES, style_module

_TOP = {"format", "game", "printed", "play", "areas", "symbols", "tiers", "published"}
_GAME = {"id", "name", "number", "regulation", "source", "prize_table"}
_PRINTED = {"price", "order_tickets", "pool_tickets", "first_ticket", "last_ticket", "counts_per",
            "last_pool"} | PRINT_FIELDS  # print-run settings: poolgen/deliverables/settings.py
_PLAY = {"max_wins"}
_PUBLISHED = {"winners", "subtotal_cost", "total_cost", "odds", "other_costs", "free_ticket_cost"}
_SYMBOL = {"group", "code", "symbol", "caption", "value", "free", "how", "by"}
_TIER = {"id", "get", "prize", "count", "published_cost", "wins"}
_WIN = {"area", "prize", "how", "by"}
PRIZE_TABLES = ("regulation", "designed", "partly designed")
_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")  # as a format-1 game.id (poolgen/spec_game.py)
# Which symbol fields each role of a group allows (besides group, code, symbol, caption).
ROLE_FIELDS = {"numbers": set(), "prizes": {"value", "free"}, "specials": {"how", "by"},
               "multipliers": {"by"}, "pictures": set()}


@dataclass(frozen=True)
class StyleSymbol:
    """A symbol of a format-2 spec; codes are unique within their group."""

    index: int  # position in [[symbols]]
    group: str
    code: str
    symbol: str
    caption: str
    cents: int | None = None  # prize symbols: the value (a free ticket: the ticket price)
    free: bool = False
    how: str | None = None  # special symbols: "automatic" or "multiplier"
    by: int = 1


@dataclass(frozen=True)
class Win:
    """One win of a tier: in `area`, prize symbol `prize` won `how`, paying `by` x its value."""

    area: str
    how: str
    by: int
    prize: StyleSymbol

    @property
    def cents(self) -> int:
        return self.by * (self.prize.cents or 0)

    def key(self) -> tuple:
        return (self.area, self.how, self.by, self.prize.code)


@dataclass(frozen=True)
class Area:
    id: str
    style: str
    module: Any = field(repr=False)
    params: Any = field(repr=False)  # what the style module read (its own dataclass)
    labels: tuple[str, ...] = ()  # the area's sections as printed on the ticket (proofs); () = the style's


@dataclass(frozen=True)
class StyledGame:
    areas: tuple[Area, ...]
    max_wins: int
    wins: dict[str, tuple[Win, ...]]  # tier id -> its wins ("lose": none)
    prize_table: str
    free_ticket_cost: str | None

    def play_document(self) -> dict:
        """The manifest's `play` entry (docs/styles/play.md)."""
        return {
            "max_wins": self.max_wins,
            "areas": [a.module.entry(a.params) | {"id": a.id, "style": a.style} for a in self.areas],
            "tiers": [{"id": tid, "wins": [{"area": w.area, "how": w.how, "by": w.by,
                                            "prize": w.prize.code, "prize_cents": w.prize.cents}
                                           for w in wins]}
                      for tid, wins in self.wins.items()],
        }

    def spots(self) -> int:
        """A ticket's layout columns, all areas together (what building a pool's memory scales with)."""
        return sum(len(a.module.columns(a.id, a.params)) for a in self.areas)

    def lay_out(self, spec: Spec, pool: Pool, tiers: np.ndarray, stream) -> dict[str, np.ndarray]:
        """Every area's columns: each area's style lays out, tier by tier, that area's wins."""
        tiers = np.asarray(tiers)
        rows = [np.flatnonzero(tiers == i) for i in range(len(pool.tiers))]
        out: dict[str, np.ndarray] = {}
        for area in self.areas:
            groups = [(rows[i], tuple(w for w in self.wins[t.id] if w.area == area.id))
                      for i, t in enumerate(pool.tiers)]
            out.update(area.module.lay_out(area.id, area.params, groups, tiers.size, stream, out))
        return out


class AreaContext:
    """What a style module reads an area with: the reader, the symbol groups, the ticket price."""

    def __init__(self, r: _Reader, groups: dict[str, list[StyleSymbol]], price_cents: int) -> None:
        self.r, self.groups, self.price_cents = r, groups, price_cents
        self.roles: dict[str, str] = {}
        self.areas: list[Area] = []  # the areas read so far (an area may refer to an earlier one)

    def group(self, table: dict, key: str, where: str, role: str, required: bool = True):
        """The symbols of the group an area field names, taking the given role."""
        name = self.r.get(table, key, where, str, required=required)
        if name is None:
            return None
        if name not in self.groups:
            raise self.r.fail(f"{where}.{key}", f"no [[symbols]] of group {name!r}")
        if self.roles.setdefault(name, role) != role:
            raise self.r.fail(f"{where}.{key}", f"group {name!r} is already used as {self.roles[name]}")
        return tuple(self.groups[name])

    def whole(self, table: dict, key: str, where: str, low: int, required: bool = True,
              default: int | None = None, high: int | None = None) -> int:
        if key not in table and not required:
            return default  # type: ignore[return-value]
        value = self.r.get(table, key, where, int)
        if value < low:
            raise self.r.fail(f"{where}.{key}", f"must be at least {low}, got {value}")
        if high is not None and value > high:
            raise self.r.fail(f"{where}.{key}", f"must be at most {high}, got {value}")
        return value


def load_styled_spec(path: Path, raw_bytes: bytes, doc: dict) -> Spec:
    r = _Reader(path)
    r.known(doc, "", _TOP)
    game = r.table(doc, "game", "game", _GAME)
    game_id = r.get(game, "id", "game", str)
    if not _NAME.fullmatch(game_id):
        raise r.fail("game.id", f"{game_id[:80]!r} is not a lower-case name (a-z, 0-9, _; at most 64)")
    number = r.get(game, "number", "game", int)
    if not 0 <= number <= MAX_GAME_NUMBER:  # the ticket id's and barcode's first three digits
        raise r.fail("game.number", f"must be 0..{MAX_GAME_NUMBER} (three digits of every ticket id), "
                                    f"not {number}")
    prize_table = r.get(game, "prize_table", "game", str)
    if prize_table not in PRIZE_TABLES:
        raise r.fail("game.prize_table", f"must be one of {', '.join(PRIZE_TABLES)}, not {prize_table!r}")
    sales = r.table(doc, "printed", "printed", _PRINTED)
    read_print_settings(r, sales)
    price = r.money(sales, "price", "printed")
    if not price:
        raise r.fail("printed.price", "a ticket costs more than nothing")
    play = r.table(doc, "play", "play", _PLAY)
    max_wins = r.count(play, "max_wins", "play")
    published = doc.get("published", {})
    if not isinstance(published, dict):
        raise r.fail("published", "must be a table")
    r.known(published, "published", _PUBLISHED)
    _check_published(r, {k: v for k, v in published.items() if k != "free_ticket_cost"})
    free_cost = r.get(published, "free_ticket_cost", "published", str, required=False)
    if free_cost not in (None, "zero", "price"):
        raise r.fail("published.free_ticket_cost", f"must be \"zero\" or \"price\", not {free_cost!r}")

    groups, symbols = _symbols(r, doc, price)
    ctx = AreaContext(r, groups, price)
    areas = _areas(r, doc, ctx)
    _symbol_roles(r, doc, symbols, ctx.roles)
    by_id = {a.id: a for a in areas}
    tiers, wins = _tiers(r, doc, by_id, max_wins)
    free_rows = [t for t in tiers if any(w.prize.free for w in wins[t.id])]
    if free_cost is None and any("published_cost" in t.data for t in free_rows):
        raise r.fail("published.free_ticket_cost", "missing: say how the published table prices "
                                                   "free tickets (\"zero\" or \"price\")")
    if free_cost is not None and not free_rows:
        raise r.fail("published.free_ticket_cost", "not used: no tier wins a free ticket")
    styled = StyledGame(tuple(areas), max_wins, {"lose": (), **wins}, prize_table, free_cost)
    if styled.spots() > MAX_TICKET_SPOTS:
        raise r.fail("areas", f"{styled.spots():,} spots on a ticket; at most {MAX_TICKET_SPOTS:,}")
    pools = _pools(r, sales, tiers, styled.spots())
    return Spec(
        path=path, sha256=hashlib.sha256(raw_bytes).hexdigest(),
        name=r.get(game, "name", "game", str), number=number,
        regulation=r.get(game, "regulation", "game", str), rules=game_id, kind="printed",
        source=r.get(game, "source", "game", str), sales=sales, play=play, published=published,
        layout={},
        symbols=tuple(Symbol(s.group, s.code, s.symbol, s.caption, s.cents) for s in symbols),
        tiers=tiers, pools=pools, styles=styled,
    )


def _symbols(r: _Reader, doc: dict, price: int) -> tuple[dict[str, list[StyleSymbol]], list[StyleSymbol]]:
    raw = doc.get("symbols")
    if not isinstance(raw, list) or not raw:
        raise r.fail("symbols", "missing: a spec declares its symbols as [[symbols]]")
    groups: dict[str, list[StyleSymbol]] = {}
    out = []
    for i, s in enumerate(raw):
        where = f"symbols[{i}]"
        if not isinstance(s, dict):
            raise r.fail(where, "must be a table")
        r.known(s, where, _SYMBOL)
        group, code = r.get(s, "group", where, str), r.get(s, "code", where, str)
        if any(x.code == code for x in groups.get(group, [])):
            raise r.fail(f"{where}.code", f"duplicate symbol code {code!r} in group {group!r}")
        free = r.get(s, "free", where, bool, required=False) or False
        if free and "value" in s:
            raise r.fail(f"{where}.value", "a free ticket is worth the ticket price: no value")
        cents = price if free else r.money(s, "value", where, required=False)
        if cents is not None and cents <= 0:
            raise r.fail(f"{where}.value", "a prize symbol is worth more than nothing")
        how = r.get(s, "how", where, str, required=False)
        if how not in (None, "automatic", "multiplier"):
            raise r.fail(f"{where}.how", f"must be \"automatic\" or \"multiplier\", not {how!r}")
        by = r.get(s, "by", where, int, required=False)
        if by is not None and not 2 <= by <= MAX_MULTIPLIER:
            raise r.fail(f"{where}.by", f"a multiplier is 2..{MAX_MULTIPLIER}, got {by}")
        sym = StyleSymbol(i, group, code, r.get(s, "symbol", where, str),
                          r.get(s, "caption", where, str, required=False) or "", cents, free, how,
                          by if by is not None else 1)
        groups.setdefault(group, []).append(sym)
        out.append(sym)
    return groups, out


def _symbol_roles(r: _Reader, doc: dict, symbols: list[StyleSymbol], roles: dict[str, str]) -> None:
    """Every symbol's group is used by an area, and it has exactly the fields its role reads."""
    for s in symbols:
        where = f"symbols[{s.index}]"
        role = roles.get(s.group)
        if role is None:
            raise r.fail(f"{where}.group", f"group {s.group!r} is used by no area")
        raw = doc["symbols"][s.index]
        for key in sorted(set(raw) - {"group", "code", "symbol", "caption"} - ROLE_FIELDS[role]):
            raise r.fail(f"{where}.{key}", f"not used: a symbol of {role} has no {key}")
        if role == "prizes" and s.cents is None:
            raise r.fail(f"{where}.value", "missing field (or free = true)")
        if role == "specials" and s.how is None:
            raise r.fail(f"{where}.how", "missing field")
        if role == "specials" and (s.how == "multiplier") != ("by" in raw):
            raise r.fail(f"{where}.by", "a multiplier symbol has `by`, an automatic one has not")
        if role == "multipliers" and "by" not in raw:
            raise r.fail(f"{where}.by", "missing field")


def _areas(r: _Reader, doc: dict, ctx: AreaContext) -> list[Area]:
    raw = doc.get("areas")
    if not isinstance(raw, list) or not raw:
        raise r.fail("areas", "missing: a spec declares its play areas as [[areas]]")
    out: list[Area] = []
    for i, a in enumerate(raw):
        where = f"areas[{i}]"
        if not isinstance(a, dict):
            raise r.fail(where, "must be a table")
        style = r.get(a, "style", where, str)
        try:
            module = style_module(style)
        except LookupError:
            raise r.fail(f"{where}.style", f"unknown style {style!r} (known: {', '.join(STYLES)})") from None
        r.known(a, where, {"id", "style", "labels"} | module.FIELDS)
        area_id = r.get(a, "id", where, str)
        if not _NAME.fullmatch(area_id):
            raise r.fail(f"{where}.id", f"{area_id[:80]!r} is not a lower-case name (a-z, 0-9, _; at most "
                                        "64)")
        if any(x.id == area_id for x in out):
            raise r.fail(f"{where}.id", f"duplicate area id {area_id!r}")
        spots = a.get("spots")
        if isinstance(spots, int) and spots > MAX_TICKET_SPOTS:  # before a style sizes anything by it
            raise r.fail(f"{where}.spots", f"{spots:,} spots; a ticket has at most {MAX_TICKET_SPOTS:,}")
        ctx.areas = out
        params = module.read_area(ctx, a, where)
        out.append(Area(area_id, style, module, params, _labels(r, a, where, module, area_id, params)))
    return out


def _labels(r: _Reader, a: dict, where: str, module, area_id: str, params) -> tuple[str, ...]:
    """`labels`: the titles of the area's sections as the ticket prints them (the proof draws them
    instead of the style's own words), one per section the style draws."""
    if "labels" not in a:
        return ()
    labels = a["labels"]
    if not isinstance(labels, list) or not all(isinstance(x, str) and 0 < len(x) <= 80 for x in labels):
        raise r.fail(f"{where}.labels", "must be a list of section titles (strings of 1 to 80 characters)")
    blank = dict.fromkeys(module.columns(area_id, params), 0)
    sections = [title for title, _ in module.face(area_id, params, blank)]
    if len(labels) != len(sections):
        raise r.fail(f"{where}.labels", f"{len(labels)} title(s) for the area's {len(sections)} section(s) "
                                        f"({'; '.join(sections)})")
    return tuple(labels)


def _tiers(r: _Reader, doc: dict, areas: dict[str, Area], max_wins: int):
    raw = doc.get("tiers")
    if not isinstance(raw, list) or not raw:
        raise r.fail("tiers", "missing: a spec declares its prize tiers as [[tiers]]")
    tiers: list[Tier] = []
    wins: dict[str, tuple[Win, ...]] = {}
    ways: dict[tuple, int] = {}
    for i, t in enumerate(raw):
        where = f"tiers[{i}]"
        if not isinstance(t, dict):
            raise r.fail(where, "must be a table")
        r.known(t, where, _TIER)
        tier_id = r.get(t, "id", where, str)
        if tier_id in wins or tier_id == "lose":
            raise r.fail(f"{where}.id", f"duplicate tier id {tier_id!r}")
        r.get(t, "get", where, str, required=False)
        r.money(t, "published_cost", where, required=False)
        listed = r.get(t, "wins", where, list)
        if not listed:
            raise r.fail(f"{where}.wins", "a prize tier is won some way: list its wins")
        tier_wins = tuple(_win(r, w, f"{where}.wins[{j}]", areas) for j, w in enumerate(listed))
        if len(tier_wins) > max_wins:
            raise r.fail(f"{where}.wins", f"{len(tier_wins)} wins, but a ticket wins at most "
                                          f"{max_wins} times (play.max_wins)")
        for area in areas.values():
            mine = tuple(w for w in tier_wins if w.area == area.id)
            if mine:
                why = area.module.check_wins(area.params, mine)
                if why:
                    raise r.fail(f"{where}.wins", f"area {area.id!r} ({area.style}): {why}")
        prize = sum(w.cents for w in tier_wins)
        stated = r.money(t, "prize", where, required=False)
        if stated is not None and stated != prize:
            raise r.fail(f"{where}.prize", f"{stated} cents, but its wins add up to {prize} cents")
        way = tuple(sorted(w.key() for w in tier_wins))
        if way in ways:
            raise r.fail(where, f"duplicate tier: won the same way as tiers[{ways[way]}]")
        ways[way] = i
        wins[tier_id] = tier_wins
        tiers.append(Tier(tier_id, i + 1, r.count(t, "count", where), prize, None, t))
    return tuple(tiers), wins


def _win(r: _Reader, w: object, where: str, areas: dict[str, Area]) -> Win:
    if not isinstance(w, dict):
        raise r.fail(where, "must be a table { area, prize, how }")
    r.known(w, where, _WIN)
    area = areas.get(r.get(w, "area", where, str))
    if area is None:
        raise r.fail(f"{where}.area", f"no area {w['area']!r} (areas: {', '.join(areas)})")
    how = r.get(w, "how", where, str)
    by = r.get(w, "by", where, int, required=False)
    code = r.get(w, "prize", where, str)
    try:
        prize, by = area.module.read_win(area.params, how, by, code)
    except ValueError as exc:
        raise r.fail(where, f"area {area.id!r} ({area.style}): {exc}") from None
    return Win(area.id, how, by, prize)


def _pools(r: _Reader, sales: dict, tiers: tuple[Tier, ...], spots: int) -> tuple[Pool, ...]:
    """Whole pools of `pool_tickets`; with `last_pool = "partial"` the order's rest is one more,
    smaller pool, where every tier's count scales to it exactly."""
    price = r.money(sales, "price", "printed")
    order = r.count(sales, "order_tickets", "printed")
    size = r.count(sales, "pool_tickets", "printed")
    first, last = r.count(sales, "first_ticket", "printed"), r.count(sales, "last_ticket", "printed")
    per = r.get(sales, "counts_per", "printed", str)
    if per not in ("order", "pool"):
        raise r.fail("printed.counts_per", f"must be \"order\" or \"pool\", not {per!r}")
    bound_sizes(r, "printed", size, order)  # the input boundary, as for every spec (poolgen/limits.py)
    if last < first:
        raise r.fail("printed.last_ticket", "must not be below first_ticket")
    per_book = last - first + 1
    if per_book > MAX_BOOK_TICKETS:  # a ticket's number in its book is three digits of its id
        raise r.fail("printed.last_ticket", f"books of {per_book:,} tickets; at most {MAX_BOOK_TICKETS:,} "
                                            "(three digits of every ticket id)")
    if size == 0 or size % per_book:
        raise r.fail("printed.pool_tickets", f"a pool of {size} is not whole books of {per_book}")
    last_pool = r.get(sales, "last_pool", "printed", str, required=False)
    if last_pool not in (None, "partial"):
        raise r.fail("printed.last_pool", f"must be \"partial\", not {last_pool!r}")
    rest = order % size
    if rest and last_pool is None:
        raise r.fail("printed.pool_tickets", f"an order of {order} is not whole pools of {size} "
                                             "(last_pool = \"partial\" makes the rest one smaller pool)")
    if last_pool and not rest:
        raise r.fail("printed.last_pool", f"not used: an order of {order} is whole pools of {size}")
    if rest % per_book:
        raise r.fail("printed.order_tickets", f"the last pool of {rest} is not whole books of {per_book}")
    if order // per_book > MAX_ORDER_BOOKS:  # book numbers are seven digits of every ticket id
        raise r.fail("printed.order_tickets", f"{order // per_book:,} books of {per_book}; at most "
                                              f"{MAX_ORDER_BOOKS:,} (seven digits of every ticket id)")
    sizes = [size] * (order // size) + ([rest] if rest else [])
    basis = order if per == "order" else size
    pools, book = [], 0
    for k, tickets in enumerate(sizes):
        counts = []
        for t in tiers:
            if (t.count * tickets) % basis:
                raise r.fail(f"tiers[{t.index - 1}].count",
                             f"{t.count} winners per {per} do not scale exactly to a pool of {tickets}")
            counts.append(t.count * tickets // basis)
        if sum(counts) > tickets:
            raise r.fail("tiers", f"{sum(counts)} winners per pool exceed the pool of {tickets} tickets")
        ptiers = (PoolTier("lose", 0, tickets - sum(counts)),) + tuple(
            PoolTier(t.id, t.prize_cents, c) for t, c in zip(tiers, counts, strict=True))
        pools.append(Pool(id=f"p{k + 1}", price_cents=price, tickets=tickets, tiers=ptiers,
                          first_book=book, books=tickets // per_book))
        book += tickets // per_book
    bound_pools(r, "printed", tuple(pools), spots)
    return tuple(pools)
