"""A spec's fields of every game, refused when missing or of the wrong kind, before anything reads them,
naming the field as poolgen's loader names it (docs/new-game.md, sections 1 and 3: the [game] table, the
[[symbols]] and [[tiers]] of either format). Without this a missing [game] read as a KeyError and a
blank symbol code or a number for a caption passed `verify --spec` where `check` refuses the spec.

Each rule is (field, kind, required); kinds: text, code (text, not blank), name (a lower-case name:
a-z, 0-9, _, starting with a letter, at most 64), whole (an integer, never a boolean), count (a whole
number, not negative), order and pool (a count of tickets or shares, 1 .. the loader's 100,000,000 an
order and 10,000,000 a pool), game_number (0..9999), decimal (a multiplier: text of a finite number, not
negative)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from audit.errors import UnusableInput
from audit.read.game_number import MAX_GAME_NUMBER
from audit.read.limits import MAX_ORDER_TICKETS, MAX_POOL_TICKETS, MAX_TICKET_SPOTS
from audit.read.specs.area_fields import refuse_unfit_area
from audit.read.specs.art import refuse_bad_art
from audit.read.specs.duel_play import refuse_misshapen_duel
from audit.read.specs.known import AREA_FIELDS, GROUP_ROLES
from audit.read.specs.match_layout import refuse_misshapen_match
from audit.read.specs.money import SIGNS, dollars, foreign_amount, money, printed_amount, sign_of
from audit.styles import TICKET_ENGINES

__all__ = ["refuse_misshapen"]

_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
_PRIZE_TABLES = ("regulation", "designed", "partly designed")
_KINDS = ("printed", "einstant")

_GAME = {1: [("name", "text", True), ("number", "whole", False), ("kind", "kind", False),
             ("currency", "currency", False)],
         2: [("id", "name", True), ("number", "game_number", True), ("prize_table", "prize_table", False),
             ("name", "text", True), ("regulation", "text", True), ("source", "text", True),
             ("currency", "currency", False)]}
_AT_LEAST_ONE = {"order": "an order holds at least one ticket or share",
                 "pool": "a pool holds at least one ticket or share",
                 "max_wins": "a winning ticket wins at least once: 1 or more, not 0"}
_AT_MOST = {"order": MAX_ORDER_TICKETS, "pool": MAX_POOL_TICKETS}  # tickets or shares
_CHOICES = {"counts_per": ("order", "pool"), "counts_per_pool": ("pool",),
            "how": ("automatic", "multiplier", "all"), "free_ticket_cost": ("zero", "price"),
            "packs_neighbours": ("within packs", "across packs", "off"),
            "blocks_neighbours": ("within blocks", "across blocks", "off")}
# a count or odds as printed: digits (commas among them), optionally a point and more digits; positive
_FIGURE = re.compile(r"[0-9][0-9,]*(\.[0-9]+)?", re.ASCII)
_PRINTED = [("price", "money", True), ("order_tickets", "order", True), ("pool_tickets", "pool", True),
            ("first_ticket", "count", True), ("last_ticket", "count", True),
            ("counts_per", "counts_per", True)]
_EINSTANT = [("denominations", "list", True), ("play_areas", "list", True), ("pool_shares", "pool", True),
             ("order_shares", "order", True), ("counts_per", "counts_per_pool", True)]
_PUBLISHED = [("winners", "count", False), ("losers", "count", False), ("odds", "figure", False),
              ("losers_odds", "figure", False), ("subtotal_cost", "money", False),
              ("total_cost", "money", False), ("free_ticket_cost", "free_ticket_cost", False)]
_NO_SYMBOLS = "missing: a spec declares its symbols as [[symbols]]"
_GAME_1_LATE = [("regulation", "text", True), ("source", "text", True)]
_SYMBOL = {1: [("code", "code1", True), ("group", "text", True), ("symbol", "text", True),
               ("caption", "text", False), ("value", "money", False)],
           2: [("group", "text", True), ("code", "code2", True), ("symbol", "text", True),
               ("caption", "text", False), ("free", "bool", False), ("value", "money", False),
               ("how", "how", False), ("by", "whole", False)]}
_TIER = {1: [("multiplier", "decimal", True), ("count", "count", True), ("odds", "figure", True),
             ("i_count", "figure", False), ("i_odds", "figure", False), ("i_amounts", "list", False)],
         2: [("id", "tier_id", True), ("get", "text", False), ("published_cost", "money", False),
             ("published_odds", "figure", False), ("wins", "list", True), ("count", "count", True)]}
_WIN = [("area", "text", True), ("how", "text", True), ("by", "whole", False), ("prize", "text", True)]
_BLANK = {"code1": "the play and the manifest name the symbol by its code",
          "code2": "a tier's wins and the manifest name the symbol by its code",
          "tier_id": "the pool files, the manifest and [packs] name a tier by its id"}


def _value(table: dict[str, Any], key: str, where: str, kind: str, required: bool, sign: str = "$") -> None:
    at = f"{where}.{key}"
    if key not in table:
        if required:
            raise UnusableInput(f"{at}: missing field")
        return
    value = table[key]
    if kind in ("whole", "count", "game_number", "order", "pool", "max_wins"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise UnusableInput(f"{at}: must be a whole number, not {value!r}")
        if kind != "whole" and kind != "game_number" and value < 0:
            raise UnusableInput(f"{at}: must not be negative, got {value}")
        if kind in _AT_LEAST_ONE and value == 0:
            raise UnusableInput(f"{at}: {_AT_LEAST_ONE[kind]}")
        if kind in _AT_MOST and value > _AT_MOST[kind]:  # the loader's bounds, before anything is built
            raise UnusableInput(f"{at}: {value:,} is more than {_AT_MOST[kind]:,} per {kind}")
        if kind == "game_number" and not 0 <= value <= MAX_GAME_NUMBER:
            raise UnusableInput(f"{at}: must be 0..{MAX_GAME_NUMBER} (the first 3 digits of every ticket id, "
                                f"4 from 1000), not {value}")
        return
    if kind == "decimal":
        _decimal(value, at)
        return
    if kind == "money":
        money(value, at, sign)
        return
    if kind == "currency" and not (isinstance(value, str) and value in SIGNS):
        raise UnusableInput(f"{at}: must be one of {', '.join(SIGNS)} (an ISO 4217 code), not {value!r}")
    if kind in ("list", "bool", "table"):
        if not isinstance(value, {"list": list, "bool": bool, "table": dict}[kind]):
            raise UnusableInput(f"{at}: must be a {kind}, not {value!r}")
        return
    if not isinstance(value, str):
        raise UnusableInput(f"{at}: must be a string, not {value!r}")
    if kind in _BLANK and not value.strip():
        raise UnusableInput(f"{at}: must not be blank: {_BLANK[kind]}")
    if kind == "name" and not _NAME.fullmatch(value):
        raise UnusableInput(f"{at}: {value[:80]!r} is not a lower-case name (a-z, 0-9, _; at most 64)")
    if kind == "prize_table" and value not in _PRIZE_TABLES:
        raise UnusableInput(f"{at}: must be one of {', '.join(_PRIZE_TABLES)}, not {value!r}")
    if kind == "kind" and value not in _KINDS:
        raise UnusableInput(f"{at}: must be one of {', '.join(_KINDS)}, not {value!r}")
    if kind in _CHOICES and value not in _CHOICES[kind]:
        raise UnusableInput(f"{at}: must be {' or '.join(map(repr, _CHOICES[kind]))}, not {value!r}")
    if kind == "figure" and not (_FIGURE.fullmatch(value) and Decimal(value.replace(",", "")) > 0):
        raise UnusableInput(f"{at}: {value!r} is not a positive number")


def _decimal(value: object, at: str) -> None:
    """A multiplier: a non-negative finite number, written as text ("4.5")."""
    if not isinstance(value, str):
        raise UnusableInput(f"{at}: must be a string, not {value!r}")
    try:
        number = Decimal(value.strip())
    except InvalidOperation:
        raise UnusableInput(f"{at}: {value!r} is not a number") from None
    if not number.is_finite() or number < 0:
        raise UnusableInput(f"{at}: {value!r} is not a non-negative number")


def _fields(table: dict[str, Any], where: str, rules: list[tuple[str, str, bool]], sign: str = "$") -> None:
    for key, kind, required in rules:
        _value(table, key, where, kind, required, sign)


def _published(doc: dict[str, Any], required: bool) -> None:
    """[published]: a table (an eInstant's required), its counts, figures and amounts of the right kind."""
    if "published" not in doc and not required:
        return
    published = _table(doc, "published")
    _fields(published, "published", _PUBLISHED, sign_of(doc))
    others = published.get("other_costs", [])
    if not isinstance(others, list) or not all(isinstance(c, dict) for c in others):
        raise UnusableInput("published.other_costs: must be a list of { name, amount } tables")
    for i, cost in enumerate(others):
        _fields(cost, f"published.other_costs[{i}]", [("name", "text", True), ("amount", "money", True)],
                sign_of(doc))


# an area's sizes, when its style has them: whole numbers of at least this many
_AREA_SIZES = {"spots": 1, "rows": 1, "cols": 1, "match": 1, "yours": 1, "winning": 0, "games": 1, "pairs": 1}


def _area_fields(doc: dict[str, Any], area: dict[str, Any], where: str,
                 earlier: list[dict[str, Any]]) -> None:
    """An area's sizes are whole numbers, each field naming a symbol group names one the spec lists, and
    its style's fields are there and in range (`earlier`: the areas before it)."""
    fields = AREA_FIELDS[area["style"]]
    for key, least in _AREA_SIZES.items():
        if key in fields and key in area and not (key == "games" and area["style"] == "keno"):  # a list
            value = area[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise UnusableInput(f"{where}.{key}: must be a whole number, not {value!r}")
            if value < least:
                raise UnusableInput(f"{where}.{key}: must be at least {least}, got {value}")
    if type(area.get("spots")) is int and area["spots"] > MAX_TICKET_SPOTS:
        raise UnusableInput(f"{where}.spots: {area['spots']:,} spots; a ticket has at most "
                            f"{MAX_TICKET_SPOTS:,}")
    groups = {s.get("group") for s in doc.get("symbols", []) if isinstance(s, dict)} \
        if isinstance(doc.get("symbols"), list) else set()
    for key in GROUP_ROLES:
        if key in fields and key in area:
            group = area[key]
            if not isinstance(group, str):
                raise UnusableInput(f"{where}.{key}: must be a string, not {group!r}")
            if group not in groups:
                raise UnusableInput(f"{where}.{key}: no [[symbols]] of group {group!r}")
    if "distinct_numbers" in fields and "distinct_numbers" in area:
        _value(area, "distinct_numbers", where, "bool", True)
    if "lines" in fields and "lines" in area:
        _value(area, "lines", where, "list", True)
    if "symbol" in fields and "symbol" in area:
        _value(area, "symbol", where, "text", True)
        if "pictures" in area and area["symbol"] not in [s.get("code") for s in doc["symbols"]
                                                         if s.get("group") == area["pictures"]]:
            raise UnusableInput(f"{where}.symbol: {area['symbol']!r} is not one of the area's pictures")
    labels = area.get("labels", [])
    if not isinstance(labels, list) or not all(isinstance(x, str) and 0 < len(x) <= 200 for x in labels):
        raise UnusableInput(f"{where}.labels: must be a list of section titles (strings of 1 to 200 "
                            "characters)")
    refuse_unfit_area(doc, area, where, earlier)  # what its style requires, before the weights of its prizes
    if "decoy_weights" in fields and "decoy_weights" in area:
        _decoy_weights(doc, area, where)


def _decoy_weights(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """docs/styles/key_number_match.md, section 2: a whole-number weight 1 .. 1,000,000 for every prize
    symbol of the area's `prizes`, by code, and for nothing else."""
    weights, at = area["decoy_weights"], f"{where}.decoy_weights"
    if not isinstance(weights, dict):
        raise UnusableInput(f"{at}: must be a table, not {weights!r}")
    codes = [s.get("code") for s in doc["symbols"] if s.get("group") == area.get("prizes")]
    for code in weights:
        if code not in codes:
            raise UnusableInput(f"{at}.{code}: not one of the area's prize symbols")
    for code in codes:
        if code not in weights:
            raise UnusableInput(f"{at}.{code}: missing: every prize symbol has a weight")
        weight = weights[code]
        if isinstance(weight, bool) or not isinstance(weight, int) or not 1 <= weight <= 1_000_000:
            raise UnusableInput(f"{at}.{code}: must be a whole number 1 .. 1000000 (every prize symbol is "
                                f"shown), not {weight!r}")


_POOL_RULES = {"packs": [("neighbours", "packs_neighbours", False), ("min_winners", "count", False),
                         ("max_winners", "count", False), ("min_prize_value", "money", False)],
               "blocks": [("shares", "count", False), ("neighbours", "blocks_neighbours", False),
                          ("min_winners", "count", False), ("max_winners", "count", False),
                          ("min_prize_times", "decimal", False)]}
_RULE_LIMITS = {"caps": "at_most", "spacing": "min_distance"}


def _pool_rules(doc: dict[str, Any], name: str) -> None:
    """[packs] (printed) or [blocks] (eInstant), when given: a table of counts, an amount, and lists of
    caps and spacing rules, each a table with its limit (docs/new-game.md, section 2b)."""
    if name not in doc:
        return
    table = _table(doc, name)
    _fields(table, name, _POOL_RULES[name], sign_of(doc))
    for key, limit in _RULE_LIMITS.items():
        rules = table.get(key, [])
        if not isinstance(rules, list) or not all(isinstance(rule, dict) for rule in rules):
            raise UnusableInput(f"{name}.{key}: must be a list of tables")
        for i, rule in enumerate(rules):
            _fields(rule, f"{name}.{key}[{i}]", [("tiers", "list", False), ("prize", "money", False),
                                                  (limit, "count", True)], sign_of(doc))


def _table(doc: dict[str, Any], key: str) -> dict[str, Any]:
    value = doc.get(key)
    if not isinstance(value, dict):
        raise UnusableInput(f"{key}: {'missing table' if value is None else 'must be a table'}")
    return value


def _rows(doc: dict[str, Any], key: str, missing: str) -> list[Any]:
    rows = doc.get(key)
    if not isinstance(rows, list) or not rows:
        raise UnusableInput(f"{key}: {missing}")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise UnusableInput(f"{key}[{i}]: must be a table")
    return rows


def _as_printed(s: dict[str, Any], where: str, sign: str) -> None:
    """A cash prize symbol printed as a well-formed amount alone is worth it (docs/new-game.md, section 2,
    "Symbols are told apart"), in the loader's words."""
    shown = printed_amount(s["symbol"], sign) if s["symbol"].startswith(sign) else None
    worth = money(s["value"], f"{where}.value", sign)
    if shown is not None and shown != worth:
        raise UnusableInput(f"{where}.symbol: {s['symbol']!r} reads as {dollars(shown, sign)}, but its value "
                            f"is {dollars(worth, sign)}: a player reads the amount printed")


def _unique_code(doc: dict[str, Any], i: int, fmt: int) -> None:
    """A symbol's code is unique within its group (docs/new-game.md, section 1; an eInstant's within the
    spec): a tier's wins and the manifest name a symbol by it."""
    s = doc["symbols"][i]
    for other in doc["symbols"][:i]:
        if other.get("code") == s["code"] and (fmt == 1 or other.get("group") == s["group"]):
            raise UnusableInput(f"symbols[{i}].code: duplicate symbol code {s['code']!r}"
                                + (f" in group {s['group']!r}" if fmt == 2 else ""))


def refuse_misshapen(doc: dict[str, Any]) -> None:
    """UnusableInput naming the first field of [game], [[symbols]] or [[tiers]] that is missing or of
    the wrong kind, in poolgen's loader's words."""
    fmt = 2 if doc.get("format") == 2 else 1
    game = _table(doc, "game")
    _fields(game, "game", _GAME[fmt])
    sign = sign_of(doc)
    if fmt == 2:
        _fields(_table(doc, "printed"), "printed", _PRINTED, sign)
        if not money(doc["printed"]["price"], "printed.price", sign):
            raise UnusableInput("printed.price: a ticket costs more than nothing")
        play = _table(doc, "play")
        _value(play, "max_wins", "play", "max_wins", True)
        _published(doc, required=False)
        for i, s in enumerate(_rows(doc, "symbols", _NO_SYMBOLS)):  # before the areas that name their groups
            _fields(s, f"symbols[{i}]", _SYMBOL[fmt], sign)
            _unique_code(doc, i, fmt)
        refuse_bad_art(doc)  # art.py: file names, all or none of a group, no file twice
        for i, area in enumerate(_rows(doc, "areas", "missing: a spec declares its play areas as [[areas]]")):
            _value(area, "style", f"areas[{i}]", "text", True)
            if area["style"] not in AREA_FIELDS:
                raise UnusableInput(f"areas[{i}].style: unknown style {area['style']!r} "
                                    f"(known: {', '.join(AREA_FIELDS)})")
            _value(area, "id", f"areas[{i}]", "name", True)
            if any(other["id"] == area["id"] for other in doc["areas"][:i]):
                raise UnusableInput(f"areas[{i}].id: duplicate area id {area['id']!r}")
            _area_fields(doc, area, f"areas[{i}]", doc["areas"][:i])
    else:
        if "style" not in game and "id" in game:  # an eInstant names its game and style together
            raise UnusableInput("game.id: goes with game.style (a spec without a style names its rules)")
        if "style" not in game or game.get("kind", "einstant") != "einstant":
            return  # not an eInstant of a style: the reader refuses it as such
        _value(game, "style", "game", "text", True)
        if game["style"] not in TICKET_ENGINES:
            raise UnusableInput(f"game.style: unknown eInstant style {game['style']!r} "
                                f"(known: {', '.join(TICKET_ENGINES)})")
        _value(game, "id", "game", "name", True)
        _published(doc, required=True)
        _fields(_table(doc, "einstant"), "einstant", _EINSTANT)
    prize_groups = {a.get("prizes") for a in doc["areas"]} if fmt == 2 else set()  # texts, checked above
    for i, s in enumerate(_rows(doc, "symbols", _NO_SYMBOLS)):
        _fields(s, f"symbols[{i}]", _SYMBOL[fmt], sign)
        _unique_code(doc, i, fmt)
        if s["group"] in prize_groups and "value" not in s and not s.get("free"):
            raise UnusableInput(f"symbols[{i}].value: missing field (or free = true)")
        for key in ("symbol", "caption") if fmt == 2 else ():
            if foreign_amount(s.get(key, ""), sign):
                raise UnusableInput(f"symbols[{i}].{key}: {s[key]!r} shows an amount in another currency's "
                                    f"sign: the game's currency is {game.get('currency', 'USD')} ({sign!r})")
        if fmt == 2 and "value" in s and s.get("free"):
            raise UnusableInput(f"symbols[{i}].value: a free ticket is worth the ticket price: no value")
        if fmt == 2 and "value" in s and money(s["value"], f"symbols[{i}].value", sign) <= 0:
            raise UnusableInput(f"symbols[{i}].value: a prize symbol is worth more than nothing")
        if fmt == 2 and "value" in s:
            _as_printed(s, f"symbols[{i}]", sign)
    areas = [a["id"] for a in doc["areas"]] if fmt == 2 else []  # each a name, checked above
    multipliers: set[Decimal] = set()
    tier_ids: set[str] = {"lose"}  # the losing tier's id, which no spec tier may take
    for i, t in enumerate(_rows(doc, "tiers", "missing: a spec declares its prize tiers as [[tiers]]")):
        _fields(t, f"tiers[{i}]", _TIER[fmt], sign)
        if fmt == 2:
            if t["id"] in tier_ids:
                raise UnusableInput(f"tiers[{i}].id: duplicate tier id {t['id']!r}")
            tier_ids.add(t["id"])
            if not t["wins"]:
                raise UnusableInput(f"tiers[{i}].wins: a prize tier is won some way: list its wins")
        if fmt == 1:  # one tier a prize multiplier, paying more than nothing (docs/new-game.md, 1b)
            times = Decimal(t["multiplier"].strip())
            if times == 0:
                raise UnusableInput(f"tiers[{i}].multiplier: a prize tier must pay more than nothing (losers "
                                    "are [published].losers)")
            if times in multipliers:
                raise UnusableInput(f"tiers[{i}].multiplier: duplicate tier: multiplier {times} appears "
                                    "twice")
            multipliers.add(times)
        for j, win in enumerate(t.get("wins", []) if fmt == 2 else []):
            if not isinstance(win, dict):
                raise UnusableInput(f"tiers[{i}].wins[{j}]: must be a table")
            _fields(win, f"tiers[{i}].wins[{j}]", _WIN)
            if win["area"] not in areas:
                raise UnusableInput(f"tiers[{i}].wins[{j}].area: no area {win['area']!r} "
                                    f"(areas: {', '.join(areas)})")
    _pool_rules(doc, "packs" if fmt == 2 else "blocks")
    if fmt == 1:
        for key in ("play", "layout"):
            if key in doc and not isinstance(doc[key], dict):
                raise UnusableInput(f"{key}: must be a table")
        _fields(game, "game", _GAME_1_LATE)
        if game["style"] == "prize_legend_duel":
            refuse_misshapen_duel(doc)
        if game["style"] == "area_match":
            refuse_misshapen_match(doc)
