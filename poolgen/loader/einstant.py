"""The `format = 1` spec form: an eInstant of one ticket-wide style (docs/new-game.md).

    [game]      id, name, regulation, source, style (a TICKET_STYLES name); `kind = "einstant"`,
                which older specs state, is accepted (a format = 1 game is always an eInstant)
    [einstant]  denominations, play_areas, pool_shares, order_shares, counts_per = "pool"
    [play], [layout]   the style's parameters (docs/styles/<style>.md), read by the style
    [published], [[symbols]], [[tiers]] (multiplier, count, and the tier's row as printed)
    [blocks]    optional: the pack parameters per block of consecutive serials (poolgen/loader/packs.py)

One pool per denomination and number of play areas, each of `pool_shares` shares at denomination x
play areas; a tier pays multiplier x denomination x play areas. Pool ids are `d<dollars>.<cents>`,
with `x<areas>` appended when the game sells more than one number of play areas.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from poolgen.game.model import EInstant, Game, Pool, PoolTier, PriceMultiple, Symbol, Tier, TierFigures
from poolgen.game.play import TicketPlay, TicketTables
from poolgen.loader.bounds import bound_einstant_lists, bound_pools, bound_sizes
from poolgen.loader.packs import read_blocks
from poolgen.loader.published import printed_amount, printed_number, read_published
from poolgen.loader.reader import Reader
from poolgen.styles import TICKET_STYLES

__all__ = ["read_einstant"]

KINDS = ("printed", "einstant")
_TOP = {"format", "game", "printed", "einstant", "play", "published", "tiers", "symbols", "layout", "blocks"}
_GAME = {"name", "number", "regulation", "rules", "id", "style", "kind", "source", "currency"}
_EINSTANT = {"denominations", "play_areas", "pool_shares", "order_shares", "counts_per"}
# what check reconciles for an eInstant (table (j), per pool); winners and costs it would not
_PUBLISHED = {"odds", "losers", "losers_odds"}
_SYMBOL = {"group", "code", "symbol", "caption", "value"}
_TIER = {"multiplier", "count", "odds", "i_amounts", "i_count", "i_odds"}
GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,63}")


def read_einstant(r: Reader, path: Path, sha256: str, doc: dict[str, Any]) -> Game:
    """The game of a `format = 1` document (SpecError naming the file and field)."""
    r.known(doc, "", _TOP)
    game = r.table(doc, "game", "game", _GAME)
    name = r.get(game, "name", "game", str)
    number = r.get(game, "number", "game", int, required=False)
    kind = r.get(game, "kind", "game", str, required=False)
    if kind is None:
        kind = "einstant"
    if kind not in KINDS:
        raise r.fail("game.kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    game_id, style = _id_and_style(r, game, kind)
    if "printed" in doc:
        raise r.fail("printed", "not used: an eInstant sells shares ([einstant]); a printed game is a "
                                "format = 2 spec")
    play = doc.get("play", {})  # the style reads and checks its own [play] table
    if not isinstance(play, dict):
        raise r.fail("play", "must be a table")
    layout = doc.get("layout", {})
    if not isinstance(layout, dict):
        raise r.fail("layout", "must be a table")
    published = read_published(r, r.table(doc, "published", "published", _PUBLISHED))
    symbols = _symbols(r, doc)
    sales_table = r.table(doc, "einstant", "einstant", _EINSTANT)
    tiers = _tiers(r, doc)
    sales, pools = _pools(r, sales_table, tiers)
    blocks = read_blocks(r, doc, tiers, sales.pool_shares, pools)
    regulation = r.get(game, "regulation", "game", str)
    source = r.get(game, "source", "game", str)
    module = TICKET_STYLES[style]
    # valid by construction: the style reads every parameter it needs now
    params = module.read(TicketTables(r.file, symbols, sales.play_areas, sales.denomination_cents,
                                      play, layout, r.currency))
    return Game(path=path, sha256=sha256, id=game_id, name=name, number=number, regulation=regulation,
                source=source, sales=sales, symbols=symbols, tiers=tiers, pools=pools,
                play=TicketPlay(style, module, params), published=published, packs=blocks,
                currency=r.currency)


def _id_and_style(r: Reader, game: dict[str, Any], kind: str) -> tuple[str, str]:
    """(game.id, game.style): an eInstant names its game (`id`: streams, run ids) and its
    ticket-wide style. A spec that names `rules` instead is refused: no game has rules of its own
    (every game is a spec of play styles, docs/new-game.md)."""
    if "style" not in game:
        if "id" in game:
            raise r.fail("game.id", "goes with game.style (a spec without a style names its rules)")
        rules = r.get(game, "rules", "game", str)
        raise r.fail("game.rules", f"{rules!r}: no game has rules of its own; write a printed "
                                   "game as a format = 2 spec of play styles, an eInstant with "
                                   "game.id and game.style (docs/new-game.md)")
    if "rules" in game:
        raise r.fail("game.rules", "a spec with game.style names its game by game.id, not rules")
    style = r.get(game, "style", "game", str)
    game_id = r.get(game, "id", "game", str)
    if not GAME_ID.fullmatch(game_id):
        raise r.fail("game.id", f"{game_id!r} is not a lower-case name (a-z, 0-9, _; at most 64)")
    if kind != "einstant":
        raise r.fail("game.style", "names an eInstant style; a printed game of styles is format = 2")
    if style not in TICKET_STYLES:
        raise r.fail("game.style", f"unknown eInstant style {style!r} "
                                   f"(known: {', '.join(sorted(TICKET_STYLES))})")
    return game_id, style


def _symbols(r: Reader, doc: dict[str, Any]) -> tuple[Symbol, ...]:
    raw = doc.get("symbols")
    if not isinstance(raw, list) or not raw:
        raise r.no_symbols(doc)
    out: list[Symbol] = []
    seen: set[str] = set()
    for i, s in enumerate(raw):
        where = f"symbols[{i}]"
        if not isinstance(s, dict):
            raise r.fail(where, "must be a table")
        r.known(s, where, _SYMBOL)
        code = r.get(s, "code", where, str)
        if not code.strip():
            raise r.fail(f"{where}.code", "must not be blank: the play and the manifest name the symbol by "
                         "its code")
        if code in seen:
            raise r.fail(f"{where}.code", f"duplicate symbol code {code!r}")
        seen.add(code)
        out.append(Symbol(
            index=i,
            group=r.get(s, "group", where, str),
            code=code,
            symbol=r.get(s, "symbol", where, str),
            caption=r.get(s, "caption", where, str, required=False) or "",
            cents=r.money(s, "value", where, required=False),
        ))
    return tuple(out)


def _tiers(r: Reader, doc: dict[str, Any]) -> tuple[Tier, ...]:
    raw = doc.get("tiers")
    if not isinstance(raw, list) or not raw:
        raise r.fail("tiers", "missing: a spec declares its prize tiers as [[tiers]]")
    for i, t in enumerate(raw):
        if not isinstance(t, dict):
            raise r.fail(f"tiers[{i}]", "must be a table")
    out: list[Tier] = []
    seen: set[Decimal] = set()
    for i, t in enumerate(raw):
        where = f"tiers[{i}]"
        r.known(t, where, _TIER)
        mult = r.decimal(t, "multiplier", where)
        if mult == 0:
            raise r.fail(f"{where}.multiplier", "a prize tier must pay more than nothing "
                                                "(losers are [published].losers)")
        if mult in seen:
            raise r.fail(f"{where}.multiplier", f"duplicate tier: multiplier {mult} appears twice")
        seen.add(mult)
        odds = printed_number(r, t, "odds", where, required=True)
        count = printed_number(r, t, "i_count", where)
        count_odds = printed_number(r, t, "i_odds", where)
        amounts = None
        if "i_amounts" in t:
            amounts = tuple(r.get(t, "i_amounts", where, list))
            for j in range(len(amounts)):
                printed_amount(r, {"a": amounts[j]}, "a", f"{where}.i_amounts[{j}]")
        figures = TierFigures(odds=odds, amounts=amounts, count=count, count_odds=count_odds)
        out.append(Tier(id=f"m{mult.normalize():f}", index=i + 1, count=r.count(t, "count", where),
                        prize=PriceMultiple(mult), published=figures))
    return tuple(out)


def _pools(r: Reader, sales: dict[str, Any], tiers: tuple[Tier, ...]) -> tuple[EInstant, tuple[Pool, ...]]:
    texts = r.get(sales, "denominations", "einstant", list)
    denoms: list[int] = []
    for j, d in enumerate(texts):
        denoms.append(r.money({"d": d}, "d", f"einstant.denominations[{j}]"))
    areas = r.get(sales, "play_areas", "einstant", list)
    for j, a in enumerate(areas):
        if isinstance(a, bool) or not isinstance(a, int) or a < 1:
            raise r.fail(f"einstant.play_areas[{j}]", f"must be a whole number >= 1, not {a!r}")
    bound_einstant_lists(r, denoms, areas)
    size = r.count(sales, "pool_shares", "einstant")
    order = r.count(sales, "order_shares", "einstant")
    bound_sizes(r, "einstant", size, order)
    if r.get(sales, "counts_per", "einstant", str) != "pool":
        raise r.fail("einstant.counts_per", "eInstant counts are per pool: write \"pool\"")
    for t in tiers:
        if t.published.amounts is not None and len(t.published.amounts) != len(denoms):
            raise r.fail(f"tiers[{t.index - 1}].i_amounts",
                         f"{len(t.published.amounts)} amounts for {len(denoms)} denominations")
    winners = sum(t.count for t in tiers)
    if winners > size:
        raise r.fail("tiers", f"{winners} winners per pool exceed the pool of {size} shares")
    pools = []
    for d in denoms:
        for a in areas:
            ptiers = [PoolTier("lose", 0, size - winners)]
            for t in tiers:
                cents = t.times * d * a
                if cents != cents.to_integral_value():
                    raise r.fail(f"tiers[{t.index - 1}].multiplier",
                                 f"{t.times} x {d} cents x {a} is not whole cents")
                ptiers.append(PoolTier(t.id, int(cents), t.count))
            pool_id = f"d{d // 100}.{d % 100:02d}" + (f"x{a}" if len(areas) > 1 else "")
            pools.append(Pool(id=pool_id, price_cents=d * a, tickets=size, tiers=tuple(ptiers),
                              denomination_cents=d, play_areas=a))
    bound_pools(r, "einstant", tuple(pools))
    sales_model = EInstant(denominations=tuple(texts), denomination_cents=tuple(denoms),
                           play_areas=tuple(areas), pool_shares=size, order_shares=order)
    return sales_model, tuple(pools)
