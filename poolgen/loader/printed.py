"""The `format = 2` spec form: a printed game of play areas, each of an area style (docs/new-game.md).

    [game]      id, name, number, regulation, source, prize_table
    [printed]   price, order_tickets, pool_tickets, first_ticket, last_ticket, counts_per, last_pool,
                and the print-run settings virn_digits and high_tier_prize (docs/validation.md)
    [play]      max_wins
    [[areas]]   each of a style (poolgen/loader/areas.py), [[symbols]] by group, [[tiers]] with wins
    [published] the figures the regulation prints (optional)
    [packs]     the programmed pack parameters (optional; poolgen/loader/packs.py)

Pools: whole pools of `pool_tickets` (p1, p2, ...), then with `last_pool = "partial"` one pool of
the order's rest; a tier's count scales to a pool of t tickets as count x t / order_tickets
(`counts_per = "order"`) or count x t / pool_tickets (`"pool"`), exactly or not at all; with
`split = "even"` (counts per order only) each pool holds its exact share rounded down until the run's
seed draws which pools round up (poolgen/run/split.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from poolgen.game.model import Game, Pool, PoolTier, Printed, Symbol, Tier
from poolgen.game.play import Area, AreaPlay
from poolgen.game.spots import area_spots
from poolgen.limits import (
    MAX_BOOK_TICKETS,
    MAX_GAME_NUMBER,
    MAX_MULTIPLIER,
    MAX_ORDER_BOOKS,
    MAX_TICKET_SPOTS,
    VIRN_DIGITS,
)
from poolgen.loader.areas import NAME, AreaContext, read_areas, read_tiers, refuse_unshown_prizes
from poolgen.loader.bounds import bound_pools, bound_sizes
from poolgen.loader.currency import amounts_as_printed
from poolgen.loader.packs import read_packs
from poolgen.loader.published import read_published
from poolgen.loader.reader import Reader

__all__ = ["read_printed"]

_TOP = {"format", "game", "printed", "play", "areas", "symbols", "tiers", "published", "packs"}
_GAME = {"id", "name", "number", "regulation", "source", "prize_table", "currency"}
_PRINT_SETTINGS = {"virn_digits", "high_tier_prize"}
_PRINTED = {"price", "order_tickets", "pool_tickets", "first_ticket", "last_ticket", "counts_per",
            "last_pool", "split"} | _PRINT_SETTINGS
_PLAY = {"max_wins"}
_PUBLISHED = {"winners", "subtotal_cost", "total_cost", "odds", "other_costs", "free_ticket_cost",
              "row_odds_rounding"}
# [published] row_odds_rounding as written -> as `Published` holds it (absent: half up)
_ROW_ODDS_ROUNDINGS: dict[str | None, Literal["half up", "down", "up"]] = {
    None: "half up", "half up": "half up", "down": "down", "up": "up"}
_SYMBOL = {"group", "code", "symbol", "caption", "value", "free", "how", "by", "art"}
# An art reference: a file name in the printer's art library, 1 to 128 printable ASCII characters
# without a directory (no / \ :), not starting with a dot or a space, no "..", not ending in a space.
ART = re.compile(r"(?![. ])(?!.*\.\.)(?!.* $)[ -.0-9;-\[\]-~]{1,128}")
PRIZE_TABLES = ("regulation", "designed", "partly designed")
# [published] free_ticket_cost as written -> as `Published` holds it (absent: None)
_FREE_TICKET_COSTS: dict[str | None, Literal["zero", "price"] | None] = {None: None, "zero": "zero",
                                                                          "price": "price"}
# Which symbol fields each role of a group allows (besides group, code, symbol, caption, art).
ROLE_FIELDS: dict[str, set[str]] = {"numbers": set(), "prizes": {"value", "free"}, "specials": {"how", "by"},
                                    "multipliers": {"by"}, "pictures": set(), "letters": set()}
DEFAULT_VIRN_DIGITS = 12
DEFAULT_HIGH_TIER_CENTS = 60000  # the usual claim-centre threshold


def read_printed(r: Reader, path: Path, sha256: str, doc: dict[str, Any]) -> Game:
    """The game of a `format = 2` document (SpecError naming the file and field)."""
    r.known(doc, "", _TOP)
    game = r.table(doc, "game", "game", _GAME)
    game_id = r.get(game, "id", "game", str)
    if not NAME.fullmatch(game_id):
        raise r.fail("game.id", f"{game_id[:80]!r} is not a lower-case name (a-z, 0-9, _; at most 64)")
    number = r.get(game, "number", "game", int)
    if not 0 <= number <= MAX_GAME_NUMBER:  # the ticket id's and barcode's first three or four digits
        raise r.fail("game.number", f"must be 0..{MAX_GAME_NUMBER} (the first 3 digits of every ticket id, "
                                    f"4 from 1000), not {number}")
    # "regulation" when left out (docs/new-game.md, section 1)
    prize_table = r.get(game, "prize_table", "game", str, required=False)
    prize_table = "regulation" if prize_table is None else prize_table
    if prize_table not in PRIZE_TABLES:
        raise r.fail("game.prize_table", f"must be one of {', '.join(PRIZE_TABLES)}, not {prize_table!r}")
    sales = r.table(doc, "printed", "printed", _PRINTED)
    virn_digits, high_tier_cents = _print_settings(r, sales)
    price = r.money(sales, "price", "printed")
    if not price:
        raise r.fail("printed.price", "a ticket costs more than nothing")
    play = r.table(doc, "play", "play", _PLAY)
    max_wins = r.count(play, "max_wins", "play")
    if not max_wins:  # else every tier's wins were refused, naming the tier and not this field
        raise r.fail("play.max_wins", "a winning ticket wins at least once: 1 or more, not 0")
    published = doc.get("published", {})
    if not isinstance(published, dict):
        raise r.fail("published", "must be a table")
    r.known(published, "published", _PUBLISHED)
    figures = read_published(r, {k: v for k, v in published.items()
                                 if k not in ("free_ticket_cost", "row_odds_rounding")}, prize_table)
    free_cost = r.get(published, "free_ticket_cost", "published", str, required=False)
    if free_cost not in _FREE_TICKET_COSTS:
        raise r.fail("published.free_ticket_cost", f"must be \"zero\" or \"price\", not {free_cost!r}")
    row_odds = r.get(published, "row_odds_rounding", "published", str, required=False)
    if row_odds not in _ROW_ODDS_ROUNDINGS:
        raise r.fail("published.row_odds_rounding",
                     f"must be \"half up\", \"down\" or \"up\", not {row_odds!r}")

    groups, symbols = _symbols(r, doc, price)
    ctx = AreaContext(r, groups)
    areas = read_areas(r, doc, ctx)
    _symbol_roles(r, doc, symbols, ctx.roles)
    amounts_as_printed(r, symbols)
    _art_shown(r, areas, symbols)
    tiers, wins = read_tiers(r, doc, {a.id: a for a in areas}, max_wins)
    free_rows = [t for t in tiers if any(w.prize.free for w in wins[t.id])]
    if free_cost is None and any(t.published.cost is not None for t in free_rows):
        raise r.fail("published.free_ticket_cost", "missing: say how the published table prices "
                                                   "free tickets (\"zero\" or \"price\")")
    if free_cost is not None and not free_rows:
        raise r.fail("published.free_ticket_cost", "not used: no tier wins a free ticket")
    if row_odds is not None and all(t.published.odds is None for t in tiers):
        raise r.fail("published.row_odds_rounding", "not used: no tier states published_odds")
    play_model = AreaPlay(tuple(areas), max_wins, {"lose": (), **wins})
    if play_model.spots() > MAX_TICKET_SPOTS:
        raise r.fail("areas", f"{play_model.spots():,} spots on a ticket; at most {MAX_TICKET_SPOTS:,}")
    printed, pools = _pools(r, sales, price, tiers, play_model.spots(), virn_digits, high_tier_cents)
    losers = printed.order_tickets - sum(t.count for t in tiers) if printed.split else \
        sum(p.tiers[0].count for p in pools)  # a split's counts are the order's (drawn per pool)
    for i, area in enumerate(areas):  # a field of losers alone (ticket_multiplier's): nothing uses it
        field = getattr(area.module, "losers_field", lambda *_: None)(area.params, wins)
        if field and not losers:
            raise r.fail(f"areas[{i}].{field}", "not used: no pool holds a losing ticket (every ticket wins "
                                                "a tier)")
    for i, area in enumerate(areas):  # a prize or multiplier no tier's win reads: nothing uses it
        listed = [w for tier_wins in wins.values() for w in tier_wins if w.area == area.id]
        unpaid = getattr(area.module, "unpaid_field", lambda *_: None)(area.params, listed)
        if unpaid:
            raise r.fail(f"areas[{i}].{unpaid[0]}", f"not used: {unpaid[1]}")
    refuse_unshown_prizes(r, doc, areas, wins)
    _told_apart(r, areas)  # after `not used`: a symbol no ticket shows misleads no one
    # a split pool's counts are drawn: its parameters proved for its fewest and its most (read_packs)
    most = tuple(_rounded_up(p, tiers, printed.order_tickets) for p in pools) if printed.split else ()
    packs = read_packs(r, doc, tiers, printed.tickets_per_book, pools, most)
    return Game(
        path=path, sha256=sha256, id=game_id, name=r.get(game, "name", "game", str), number=number,
        regulation=r.get(game, "regulation", "game", str), source=r.get(game, "source", "game", str),
        sales=printed, symbols=tuple(symbols), tiers=tiers, pools=pools, play=play_model,
        published=replace(figures, free_ticket_cost=_FREE_TICKET_COSTS[free_cost],
                          row_odds_rounding=_ROW_ODDS_ROUNDINGS[row_odds]), packs=packs, currency=r.currency,
    )


def _rounded_up(pool: Pool, tiers: tuple[Tier, ...], order: int) -> Pool:
    """A split pool with every winning tier's share rounded up (the most a seed can draw of each, and
    so the fewest losers; `_pools` proved they fit)."""
    counts = [-(-t.count * pool.tickets // order) for t in tiers]
    return replace(pool, tiers=(PoolTier("lose", 0, pool.tickets - sum(counts)),) + tuple(
        PoolTier(t.id, t.cents, c) for t, c in zip(tiers, counts, strict=True)))


def _print_settings(r: Reader, sales: dict[str, Any]) -> tuple[int, int]:
    """`virn_digits` (default 12) and `high_tier_prize` (default "600.00"): the digits of each
    ticket's validation number, and the prize at or above which a prize is high-tier, validated only
    from the high-tier validation file under its own key (docs/validation.md)."""
    digits = r.get(sales, "virn_digits", "printed", int, required=False)
    if digits is None:
        digits = DEFAULT_VIRN_DIGITS
    lo, hi = VIRN_DIGITS
    if not lo <= digits <= hi:
        raise r.fail("printed.virn_digits", f"must be {lo} to {hi}, not {digits}")
    cents = r.money(sales, "high_tier_prize", "printed", required=False)
    if cents is None:
        cents = DEFAULT_HIGH_TIER_CENTS
    if cents <= 0:
        raise r.fail("printed.high_tier_prize", "must be more than nothing")
    return digits, cents


def _symbols(r: Reader, doc: dict[str, Any], price: int) -> tuple[dict[str, list[Symbol]], list[Symbol]]:
    raw = doc.get("symbols")
    if not isinstance(raw, list) or not raw:
        raise r.no_symbols(doc)
    groups: dict[str, list[Symbol]] = {}
    out = []
    for i, s in enumerate(raw):
        where = f"symbols[{i}]"
        if not isinstance(s, dict):
            raise r.fail(where, "must be a table")
        r.known(s, where, _SYMBOL)
        group, code = r.get(s, "group", where, str), r.get(s, "code", where, str)
        if not code.strip():
            raise r.fail(f"{where}.code", "must not be blank: a tier's wins and the manifest name the "
                         "symbol by its code")
        if any(x.code == code for x in groups.get(group, [])):
            raise r.fail(f"{where}.code", f"duplicate symbol code {code!r} in group {group!r}")
        free = r.get(s, "free", where, bool, required=False) or False
        if free and "value" in s:
            raise r.fail(f"{where}.value", "a free ticket is worth the ticket price: no value")
        cents = price if free else r.money(s, "value", where, required=False)
        if cents is not None and cents <= 0:
            raise r.fail(f"{where}.value", "a prize symbol is worth more than nothing")
        how = r.get(s, "how", where, str, required=False)
        if how not in (None, "automatic", "multiplier", "all"):
            raise r.fail(f"{where}.how", f"must be \"automatic\", \"multiplier\" or \"all\", not {how!r}")
        by = r.get(s, "by", where, int, required=False)
        if by is not None and not 2 <= by <= MAX_MULTIPLIER:
            one = (" (a \"1X\" that multiplies nothing is a picture, with no by: "
                   "docs/styles/ticket_multiplier.md, section 2)") if by == 1 else ""
            raise r.fail(f"{where}.by", f"a multiplier is 2..{MAX_MULTIPLIER}, got {by}{one}")
        art = r.get(s, "art", where, str, required=False)
        if art is not None and not ART.fullmatch(art):
            raise r.fail(f"{where}.art", f"{art[:80]!r} is not an art file name (1 to 128 printable ASCII "
                                         "characters, no directory: no / \\ : or .., not starting with . "
                                         "or a space)")
        sym = Symbol(i, group, code, r.get(s, "symbol", where, str),
                     r.get(s, "caption", where, str, required=False) or "", cents, free, how,
                     by if by is not None else 1, art)
        groups.setdefault(group, []).append(sym)
        out.append(sym)
    for group, members in groups.items():
        _art_of_group(r, group, members)
    return groups, out


def _art_of_group(r: Reader, group: str, members: list[Symbol]) -> None:
    """Every symbol of a group has `art` or none does, and no two the same file (compared without
    case: an art library may live on a file system that ignores it)."""
    having = [s for s in members if s.art is not None]
    if not having:
        return
    lacking = [s for s in members if s.art is None]
    if lacking:
        raise r.fail(f"symbols[{lacking[0].index}].art", f"missing: every symbol of group {group!r} has art "
                                                       f"or none does (symbols[{having[0].index}] has)")
    seen: dict[str, Symbol] = {}
    for s in having:
        assert s.art is not None  # `having`
        other = seen.setdefault(s.art.lower(), s)
        if other is not s:
            raise r.fail(f"symbols[{s.index}].art", f"duplicate art {s.art!r} in group {group!r} "
                                                    f"(symbols[{other.index}] has it)")


def _told_apart(r: Reader, areas: list[Area]) -> None:
    """The spots that show several symbols (YOUR NUMBERS: numbers and special symbols) never print one
    text for two of them: a player reads the symbol, so a number printed "26" beside a win-all symbol
    printed "26" reads as a win no tier pays (docs/new-game.md, section 2)."""
    for area in areas:
        for suffix, lists in area_spots(area):
            seen: dict[str, Symbol] = {}
            for s in (s for name in lists for s in getattr(area.params, name)):
                other = seen.setdefault(s.symbol, s)
                if other.index != s.index:
                    raise r.fail(f"symbols[{s.index}].symbol",
                                 f"{s.symbol[:80]!r} is printed for symbols[{other.index}] too (group "
                                 f"{other.group!r}, code {other.code!r}), and the spots {area.id}{suffix}* "
                                 "show both: a player cannot tell them apart")


def _art_shown(r: Reader, areas: list[Area], symbols: list[Symbol]) -> None:
    """Art is read by the imaging export for the spots that show its symbols (poolgen/deliverables/
    imaging.py `art_spots`): a group with art is shown on some spot, and a spot shows no two symbols of
    one code when one of them has art (the export finds a spot's art by its code)."""
    shown: set[str] = set()
    for area in areas:
        for suffix, lists in area_spots(area):
            alphabet = [s for name in lists for s in getattr(area.params, name)]
            shown |= {s.group for s in alphabet}
            codes = [s.code for s in alphabet]
            for s in alphabet:
                if s.art is not None and codes.count(s.code) > 1:
                    raise r.fail(f"symbols[{s.index}].art", f"the spots {area.id}{suffix}* show two "
                                                            f"symbols of code {s.code!r}: their art cannot "
                                                            "be told apart")
    for s in symbols:
        if s.art is not None and s.group not in shown:
            raise r.fail(f"symbols[{s.index}].art", f"not used: group {s.group!r} is shown on no spot of "
                                                    "the imaging file (its symbols are printed otherwise)")


def _symbol_roles(r: Reader, doc: dict[str, Any], symbols: list[Symbol], roles: dict[str, str]) -> None:
    """Every symbol's group is used by an area, and it has exactly the fields its role reads."""
    for s in symbols:
        where = f"symbols[{s.index}]"
        role = roles.get(s.group)
        if role is None:
            raise r.fail(f"{where}.group", f"group {s.group!r} is used by no area")
        raw = doc["symbols"][s.index]
        for key in sorted(set(raw) - {"group", "code", "symbol", "caption", "art"} - ROLE_FIELDS[role]):
            raise r.fail(f"{where}.{key}", f"not used: a symbol of {role} has no {key}")
        if role == "prizes" and s.cents is None:
            raise r.fail(f"{where}.value", "missing field (or free = true)")
        if role == "specials" and s.how is None:
            raise r.fail(f"{where}.how", "missing field")
        if role == "specials" and (s.how == "multiplier") != ("by" in raw):
            raise r.fail(f"{where}.by", "a multiplier symbol has `by`, an automatic or win-all one has not")
        if role == "multipliers" and "by" not in raw:
            raise r.fail(f"{where}.by", "missing field")


def _pools(r: Reader, sales: dict[str, Any], price: int, tiers: tuple[Tier, ...], spots: int,
           virn_digits: int, high_tier_cents: int) -> tuple[Printed, tuple[Pool, ...]]:
    """Whole pools of `pool_tickets`; with `last_pool = "partial"` the order's rest is one more,
    smaller pool, where every tier's count scales to it exactly."""
    order = r.count(sales, "order_tickets", "printed")
    size = r.count(sales, "pool_tickets", "printed")
    first, last = r.count(sales, "first_ticket", "printed"), r.count(sales, "last_ticket", "printed")
    per = r.get(sales, "counts_per", "printed", str)
    if per not in ("order", "pool"):
        raise r.fail("printed.counts_per", f"must be \"order\" or \"pool\", not {per!r}")
    bound_sizes(r, "printed", size, order)  # the input boundary, as for every spec (poolgen/limits.py)
    if first != 0:  # the press, the pack list and audit number a book's tickets 0 .. per_book - 1
        raise r.fail("printed.first_ticket", f"{first}; every book's tickets are numbered from 000 "
                     "(docs/pool-files.md: ticket_no is position % tickets per book), so a game whose "
                     f"tickets start at {first:03d} cannot be printed as its regulation says")
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
    split = _split(r, sales, per, tiers, sizes, order)
    basis = order if per == "order" else size
    pools, book = [], 0
    for k, tickets in enumerate(sizes):
        counts, most = [], 0  # most: the winners of the pool were every share rounded up
        for t in tiers:
            if (t.count * tickets) % basis and not split:
                raise r.fail(f"tiers[{t.index - 1}].count",
                             f"{t.count} winners per {per} do not scale exactly to a pool of {tickets}"
                             + (" (printed.split = \"even\" spreads it)" if per == "order" else ""))
            counts.append(t.count * tickets // basis)
            most += -(-t.count * tickets // basis)
        if most > tickets:
            raise r.fail("printed.split" if split else "tiers",
                         f"{most} winners per pool exceed the pool of {tickets} tickets"
                         + (" when every share rounds up" if split else ""))
        ptiers = (PoolTier("lose", 0, tickets - sum(counts)),) + tuple(
            PoolTier(t.id, t.cents, c) for t, c in zip(tiers, counts, strict=True))
        pools.append(Pool(id=f"p{k + 1}", price_cents=price, tickets=tickets, tiers=ptiers,
                          first_book=book, books=tickets // per_book))
        book += tickets // per_book
    bound_pools(r, "printed", tuple(pools), spots)
    printed = Printed(price_cents=price, order_tickets=order, pool_tickets=size, first_ticket=first,
                      last_ticket=last, counts_per="order" if per == "order" else "pool",
                      last_pool_partial=last_pool is not None, split=split, virn_digits=virn_digits,
                      high_tier_cents=high_tier_cents)
    return printed, tuple(pools)


def _split(r: Reader, sales: dict[str, Any], per: str, tiers: tuple[Tier, ...], sizes: list[int],
           order: int) -> Literal["even"] | None:
    """`split = "even"`: counts per order spread over pools they do not scale to exactly (a field
    nothing uses is refused: every count scaling exactly to every pool)."""
    split = r.get(sales, "split", "printed", str, required=False)
    if split is None:
        return None
    if split != "even":
        raise r.fail("printed.split", f"must be \"even\", not {split!r}")
    if per != "order":
        raise r.fail("printed.split", "needs counts_per = \"order\": the pools' counts add up to the "
                                      "order's")
    if all(t.count * s % order == 0 for t in tiers for s in sizes):
        raise r.fail("printed.split", "not used: every tier's count scales exactly to every pool")
    return "even"
