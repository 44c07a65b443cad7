"""A spec's unknown fields, refused as poolgen's loader refuses them, naming the same field in the same
words: a field nothing uses is an error, and a spec `check` refuses must not pass `verify --spec` in
silence (a misspelt `game.colour`, an area's `spotz`).

The fields each table of a spec may hold, written from docs/new-game.md and each style's contract
(docs/styles/<style>.md, section 2); tests/audit/read/specs/test_known.py holds them to poolgen's. Read in
the loader's order: the top level, [game], then format 2's [printed], [play], [published],
[[symbols]], [[areas]] (each of a known style), [[tiers]] and their wins, [packs]; format 1's
[published], [[symbols]], [einstant], [[tiers]], [blocks], then its style's [play] and [layout]
(area_match's bonus_games and match_pays items too)."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_unknown"]

_TOP = {1: {"format", "game", "printed", "einstant", "play", "published", "tiers", "symbols", "layout",
            "blocks"},
        2: {"format", "game", "printed", "play", "areas", "symbols", "tiers", "published", "packs"}}
_GAME = {1: {"name", "number", "regulation", "rules", "id", "style", "kind", "source", "currency"},
         2: {"id", "name", "number", "regulation", "source", "prize_table", "currency"}}
_PUBLISHED = {1: {"odds", "losers", "losers_odds"},
              2: {"winners", "subtotal_cost", "total_cost", "odds", "other_costs", "free_ticket_cost",
                  "row_odds_rounding"}}
_SYMBOL = {1: {"group", "code", "symbol", "caption", "value"},
           2: {"group", "code", "symbol", "caption", "value", "free", "how", "by", "art"}}
_TIER = {1: {"multiplier", "count", "odds", "i_amounts", "i_count", "i_odds"},
         2: {"id", "get", "prize", "count", "published_cost", "published_odds", "wins"}}
_PRINTED = {"price", "order_tickets", "pool_tickets", "first_ticket", "last_ticket", "counts_per",
            "last_pool", "split", "virn_digits", "high_tier_prize"}
_EINSTANT = {"denominations", "play_areas", "pool_shares", "order_shares", "counts_per"}
_WIN = {"area", "prize", "how", "by", "shows"}
_PACKS = {"neighbours", "min_winners", "max_winners", "min_prize_value", "caps", "spacing"}
_BLOCKS = {"shares", "neighbours", "min_winners", "max_winners", "min_prize_times", "caps", "spacing"}
_RULES = {"caps": {"tiers", "prize", "at_most"}, "spacing": {"tiers", "prize", "min_distance"}}
_AREA = {"id", "style", "labels", "per_row"}
# each area style's own fields (its contract, section 2)
AREA_FIELDS: dict[str, set[str]] = {
    "key_number_match": {"spots", "winning", "winning_from", "yours", "numbers", "prizes", "specials",
                         "match_by", "distinct_numbers", "decoy_weights"},
    "match_n": {"spots", "match", "prizes", "multipliers"},
    "bonus_reveal": {"spots", "prizes", "pictures", "most_alike"},
    "crossword": {"letters", "alphabet", "grids", "colours", "prizes", "legend", "legends", "bonus",
                  "doubler"},
    "symbol_count": {"spots", "pictures", "symbol", "prizes", "legend", "most_alike"},
    "prize_box": {"games", "spots", "match", "pictures", "prizes"},
    "lines": {"rows", "cols", "pictures", "symbol", "symbols", "lines", "prizes", "legend", "line_prizes",
              "calls"},
    "yours_beats_theirs": {"pairs", "numbers", "prizes", "ties", "multipliers"},
    "keno": {"winning", "numbers", "prizes", "games", "key"},
    "add_up": {"games", "spots", "numbers", "target", "reach", "prizes"},
    "blackjack": {"hands", "hand_cards", "numbers", "points", "dealer_totals", "dealer_points", "prizes",
                  "dealer_cards", "pays", "legend"},
    "cards": {"games", "prizes", "ties", "deal", "dealer"},
    "bingo": {"cards", "free", "calls", "patterns", "prizes", "numbers"},
    "maze": {"rows", "cols", "arrows", "starts", "exits", "prizes"},
    "ticket_multiplier": {"spots", "multipliers", "pictures", "multipliers_on_losers", "multiplies"},
    "poker_hand": {"prizes", "chart", "joker", "five_of_a_kind", "joker_multiplier"},
}
# an area field naming a symbol group -> the role the group takes; the fields each role reads besides group,
# code, symbol, caption and art (docs/new-game.md)
GROUP_ROLES = {"numbers": "numbers", "prizes": "prizes", "specials": "specials", "multipliers": "multipliers",
               "pictures": "pictures", "arrows": "pictures", "alphabet": "letters",
               "dealer_totals": "numbers"}
ROLE_FIELDS: dict[str, set[str]] = {"numbers": set(), "prizes": {"value", "free"}, "specials": {"how", "by"},
                                    "multipliers": {"by"}, "pictures": set(), "letters": set()}
DUEL_FIELDS = ("spots", "losses", "play_symbols", "beats", "multiplier_symbol", "legend",
               "max_decompositions", "first_spot_loss", "loser_max_multipliers")
MATCH_LAYOUT = ("wild", "bonus_key", "match_pays", "bonus_games", "amount_multipliers", "max_decompositions")
MATCH_GAME = {"name", "symbol", "chances", "grid"}


def _known(table: object, where: str, allowed: set[str] | tuple[str, ...],
           why: str = "unknown field") -> None:
    if isinstance(table, dict):
        for k in table:
            if k not in allowed:
                raise UnusableInput(f"{where}.{k}: {why}" if where else f"{k}: {why}")


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _rows(doc: dict[str, Any], key: str) -> list[tuple[int, dict[str, Any]]]:
    listed = doc.get(key)
    return [(i, x) for i, x in enumerate(listed) if isinstance(x, dict)] if isinstance(listed, list) else []


def _whole(item: object, where: str, keys: set[str], shape: str) -> None:
    """A style's list item refused as a whole (bingo's patterns, lines' legend, maze's exits)."""
    if isinstance(item, dict) and set(item) - keys:
        raise UnusableInput(f"{where}: must be a table {shape}")


def _area(a: dict[str, Any], where: str) -> None:
    style = a.get("style")
    if style not in AREA_FIELDS:
        return  # an unknown style: the reader refuses it as such
    _known(a, where, _AREA | AREA_FIELDS[style])
    items = [(f"{where}.{key}[{j}]", x) for key in ("legend", "patterns", "exits")
             for j, x in enumerate(_list(a.get(key)))]
    for at, item in items:
        if style in ("symbol_count", "blackjack"):
            _known(item, at, {"count", "prize"})
        elif style == "crossword":
            _known(item, at, {"words", "prize"})
        elif style == "lines" and ".legend[" in at:
            _whole(item, at, {"lines", "prize"}, "{ lines, prize }")
        elif style == "bingo" and ".patterns[" in at:
            custom = isinstance(item, dict) and bool({"name", "cells"} & set(item))
            _whole(item, at, {"name", "cells", "prize"} if custom else {"shape", "prize"},
                   "{ shape, prize } or { name, cells, prize }")
        elif style == "maze" and ".exits[" in at:
            _whole(item, at, {"side", "at", "prize"}, "{ side, at, prize }")
    if style == "crossword":
        for g, legend in enumerate(_list(a.get("legends"))):
            for j, item in enumerate(_list(legend)):
                _known(item, f"{where}.legends[{g}][{j}]", {"words", "prize"})
        _known(a.get("bonus"), f"{where}.bonus", {"length", "prize"})
        _known(a.get("doubler"), f"{where}.doubler", {"by", "free"})


def _roles(doc: dict[str, Any]) -> None:
    """Every symbol's group is named by an area, and the symbol has only the fields its role reads
    (docs/new-game.md: `value` on a number, `by` on a prize, ... are fields nothing uses)."""
    roles: dict[str, str] = {}
    for _, a in _rows(doc, "areas"):
        fields = AREA_FIELDS.get(a.get("style"), set())  # type: ignore[arg-type]
        for key, taken in GROUP_ROLES.items():
            if key in fields and isinstance(a.get(key), str):
                roles.setdefault(a[key], taken)
    for i, s in _rows(doc, "symbols"):
        role = roles.get(s.get("group"))  # type: ignore[arg-type]
        if role is None:
            raise UnusableInput(f"symbols[{i}].group: group {s.get('group')!r} is used by no area")
        for key in sorted(set(s) - {"group", "code", "symbol", "caption", "art"} - ROLE_FIELDS[role]):
            raise UnusableInput(f"symbols[{i}].{key}: not used: a symbol of {role} has no {key}")
        if role == "specials" and "how" not in s:  # docs/new-game.md, section 1: a special's how, and
            raise UnusableInput(f"symbols[{i}].how: missing field")  # `by` on a multiplier's alone
        if role == "specials" and (s["how"] == "multiplier") != ("by" in s):
            raise UnusableInput(f"symbols[{i}].by: a multiplier symbol has `by`, an automatic or win-all one "
                                "has not")
        if role == "multipliers" and "by" not in s:
            raise UnusableInput(f"symbols[{i}].by: missing field")


def _rules(table: object, name: str) -> None:
    if isinstance(table, dict):
        for key, fields in _RULES.items():
            for j, entry in enumerate(_list(table.get(key))):
                _known(entry, f"{name}.{key}[{j}]", fields)


def _ticket_style(doc: dict[str, Any]) -> None:
    style = doc["game"].get("style") if isinstance(doc.get("game"), dict) else None
    play, layout = doc.get("play"), doc.get("layout")
    if style == "prize_legend_duel":
        _known(play, "play", DUEL_FIELDS, f"unknown field (the {style} style reads "
                                          f"{', '.join(DUEL_FIELDS)})")
        if layout:
            raise UnusableInput(f"layout: the {style} style reads every parameter from [play]; remove "
                                "[layout]")
    elif style == "area_match":
        _known(layout, "layout", MATCH_LAYOUT, f"unknown field (the {style} style reads "
                                               f"{', '.join(MATCH_LAYOUT)})")
        _known(play, "play", {"spots_per_area"},
               f"not a field of the {style} style (it reads spots_per_area)")
        games = layout.get("bonus_games") if isinstance(layout, dict) else None
        for j, game in enumerate(_list(games)):
            _known(game, f"layout.bonus_games[{j}]", MATCH_GAME)
        pays = layout.get("match_pays") if isinstance(layout, dict) else None
        for j, m in enumerate(_list(pays)):  # the loader's words for an item of other fields
            if isinstance(m, dict) and set(m) - {"count", "times"}:
                raise UnusableInput(f"layout.match_pays[{j}]: has exactly count and times, not {sorted(m)}")


def refuse_unknown(doc: dict[str, Any]) -> None:
    """UnusableInput `FIELD: unknown field` (or a style's own words) for the first field of `doc` (a spec
    as tomllib read it) the loader refuses as unknown, in the loader's order."""
    fmt = 2 if doc.get("format") == 2 else 1
    _known(doc, "", _TOP[fmt])
    _known(doc.get("game"), "game", _GAME[fmt])
    if fmt == 2:
        _known(doc.get("printed"), "printed", _PRINTED)
        _known(doc.get("play"), "play", {"max_wins"})
    _known(doc.get("published"), "published", _PUBLISHED[fmt])
    if fmt == 2 and isinstance(doc.get("published"), dict):
        costs = doc["published"].get("other_costs")
        for j, c in enumerate(_list(costs)):
            _known(c, f"published.other_costs[{j}]", {"name", "amount"})
    for i, s in _rows(doc, "symbols"):
        _known(s, f"symbols[{i}]", _SYMBOL[fmt])
    if fmt == 2:
        for i, a in _rows(doc, "areas"):
            _area(a, f"areas[{i}]")
        _roles(doc)
    else:
        _known(doc.get("einstant"), "einstant", _EINSTANT)
    for i, t in _rows(doc, "tiers"):
        _known(t, f"tiers[{i}]", _TIER[fmt])
        if fmt == 2:
            for j, w in _rows(t, "wins"):
                _known(w, f"tiers[{i}].wins[{j}]", _WIN)
    packs = "packs" if fmt == 2 else "blocks"
    _known(doc.get(packs), packs, _PACKS if fmt == 2 else _BLOCKS)
    _rules(doc.get(packs), packs)
    if fmt == 1:
        _ticket_style(doc)
