"""An area's style fields held to its style's contract when the spec is read (docs/styles/<style>.md,
section 2): a field the style needs left out, a size out of the style's range, and the few rules that
tie an area's fields together (a match that does not fit the spots, a key_number_match area whose
spots are not W + 2Y, a lines area paying by neither or both of `legend` and `line_prizes`), refused as
poolgen's loader refuses them, naming the same field. audit/read/specs/shapes.py has already checked
the kinds of the fields an area gives (sizes whole numbers, groups the spec lists); this adds what a
style requires of them.

Each style's rules are read in its contract's table order: (field, kind, ...), kinds `whole` (lo, hi:
a whole number in lo..hi, hi None for no bound), `group` (a symbol group), `text`, `bool`, `list`,
`choice` (one of the values), `any` (of a kind the style's own reading checks), each required unless
marked optional."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput
from audit.read.specs.area_lists import refuse_count_legend, refuse_unshaped_lists
from audit.read.specs.codes import refuse_wide_groups
from audit.read.specs.grids import grid_shape
from audit.read.specs.keno_fields import refuse_unfit_keno
from audit.read.specs.known import AREA_FIELDS, GROUP_ROLES
from audit.read.specs.labels import refuse_label_count
from audit.read.specs.multiplies import refuse_multiplies, refuse_pair_multipliers
from audit.read.specs.poker_chart import refuse_unfit_chart

__all__ = ["refuse_unfit_area"]

_OPTIONAL = "optional"
# docs/styles/<style>.md, section 2, in its table's order
_RULES: dict[str, list[tuple[Any, ...]]] = {
    "add_up": [("games", "whole", 1, 32), ("spots", "whole", 1, 16), ("numbers", "group"),
               ("reach", "choice", ("at_least", "exactly")), ("prizes", "group"), ("target", "any")],
    "blackjack": [("hands", "whole", 1, 16), ("hand_cards", "whole", 1, 3), ("numbers", "group"),
                  ("points", "any"), ("dealer_totals", "group"), ("dealer_points", "any"),
                  ("prizes", "group"), ("dealer_cards", "whole", 1, 3, _OPTIONAL),
                  ("pays", "choice", ("hand", "count"), _OPTIONAL), ("legend", "list", _OPTIONAL)],
    # then _blackjack
    "bingo": [("cards", "whole", 1, 8), ("free", "bool"), ("calls", "whole", 1, 74), ("prizes", "group"),
              ("numbers", "group"), ("patterns", "list")],
    "bonus_reveal": [("spots", "whole", 1, None), ("prizes", "group"), ("pictures", "group"),
                     ("most_alike", "whole", 1, None, _OPTIONAL)],
    "cards": [("dealer", "choice", ("each", "shared"), _OPTIONAL),  # first: it bounds `games`
              ("games", "whole", 1, lambda area: 9 if area.get("dealer") == "shared" else 5),
              ("ties", "choice", ("win", "lose")), ("prizes", "group"),
              ("deal", "choice", ("five", "hold_em"), _OPTIONAL)],
    "crossword": [("alphabet", "group"), ("letters", "whole", 1, None), ("grids", "list"),
                  ("prizes", "group")],
    "keno": [("numbers", "group"), ("winning", "whole", 1, None), ("prizes", "group"), ("games", "list"),
             ("key", "list")],  # then refuse_unfit_keno
    "key_number_match": [("numbers", "group")],  # then _key_number_match
    "lines": [("rows", "whole", 1, None), ("cols", "whole", 1, None), ("pictures", "group"),
              ("symbol", "text", _OPTIONAL), ("lines", "list"), ("prizes", "group")],  # then _lines
    "match_n": [("spots", "whole", 1, None), ("match", "whole", 2, None), ("prizes", "group"),
                ("multipliers", "group", _OPTIONAL)],
    "maze": [("rows", "whole", 2, 8), ("cols", "whole", 2, 8), ("arrows", "group"), ("starts", "list"),
             ("prizes", "group"), ("exits", "list")],
    "poker_hand": [("joker", "bool", _OPTIONAL), ("five_of_a_kind", "bool", _OPTIONAL),
                   ("joker_multiplier", "whole", 2, 10, _OPTIONAL), ("prizes", "group"), ("chart", "list")],
    # then refuse_unfit_chart
    "prize_box": [("games", "whole", 1, 32), ("spots", "whole", 2, 32), ("match", "whole", 2, None),
                  ("pictures", "group"), ("prizes", "group")],
    "symbol_count": [("spots", "whole", 1, 64), ("pictures", "group"), ("symbol", "text"),
                     ("prizes", "group"), ("legend", "list"), ("most_alike", "whole", 1, None, _OPTIONAL)],
    "ticket_multiplier": [("spots", "whole", 1, 32), ("multipliers", "group"), ("pictures", "group"),
                          ("multipliers_on_losers", "bool", _OPTIONAL)],
    "yours_beats_theirs": [("pairs", "whole", 1, 32), ("numbers", "group"),
                           ("ties", "choice", ("win", "lose")), ("prizes", "group"),
                           ("multipliers", "group", _OPTIONAL)],
}
_SAID = {"reach": '"at_least" or "exactly"', "pays": '"hand" or "count"',
         "ties": '"win" or "lose"', "deal": '"five" or "hold_em"',
         "dealer": '"each" or "shared"'}


_ARROWS = ("UP", "RIGHT", "DOWN", "LEFT")  # docs/styles/maze.md, section 2: a maze's arrows, in order


def _fail(field: str, why: str) -> UnusableInput:
    return UnusableInput(f"{field}: {why}")


def _check(area: dict[str, Any], where: str, rule: tuple[Any, ...]) -> None:
    key, kind = rule[0], rule[1]
    at = f"{where}.{key}"
    if key not in area:
        if rule[-1] != _OPTIONAL:
            raise _fail(at, "missing field")
        return
    value = area[key]
    if kind == "whole":
        lo, hi = rule[2], rule[3](area) if callable(rule[3]) else rule[3]
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(at, f"must be a whole number, not {value!r}")
        if value < lo:
            raise _fail(at, f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            raise _fail(at, f"must be at most {hi}, got {value}")
    elif kind in ("group", "text", "choice") and not isinstance(value, str):
        raise _fail(at, f"must be a string, not {value!r}")
    elif kind == "choice" and value not in rule[2]:
        raise _fail(at, f"{_SAID[key]}, not {value!r}")
    elif kind == "bool" and not isinstance(value, bool):
        raise _fail(at, f"must be a bool, not {value!r}")  # the loader's words (poolgen/loader/reader.py)
    elif kind == "list" and not isinstance(value, list):
        raise _fail(at, f"must be a list, not {value!r}")


def _group(doc: dict[str, Any], name: object) -> list[dict[str, Any]]:
    return [s for s in doc["symbols"] if s.get("group") == name]


def _key_number_match(doc: dict[str, Any], area: dict[str, Any], where: str, earlier: list[dict[str, Any]]) \
        -> None:
    """docs/styles/key_number_match.md, section 2: W winning numbers of its own, or `winning_from` an
    earlier area's; Y >= 1; `spots` = W + 2Y (2Y with `winning_from`); W = 0 needs `specials`; more
    numbers than W; `distinct_numbers` needs Y numbers beside the W; `match_by` 1..1000."""
    if "winning_from" in area:
        name = area["winning_from"]
        if "winning" in area:
            raise _fail(f"{where}.winning", f"not used: the area matches the winning numbers of {name!r}")
        source = next((a for a in earlier if a.get("id") == name), None)
        if source is None or source.get("style") != "key_number_match" or "winning_from" in source \
                or not source.get("winning"):
            raise _fail(f"{where}.winning_from", f"{name!r} is not an earlier key_number_match area with "
                                                 "winning numbers of its own")
        if source.get("numbers") != area["numbers"]:
            raise _fail(f"{where}.numbers", f"must be the numbers of area {name!r}")
        winning: int = source["winning"]
    else:
        _check(area, where, ("winning", "whole", 0, None))
        winning = area["winning"]
    for rule in (("yours", "whole", 1, None), ("prizes", "group"), ("specials", "group", _OPTIONAL),
                 ("match_by", "whole", 1, 1000, _OPTIONAL), ("spots", "whole", 1, None)):
        _check(area, where, rule)
    yours, own = area["yours"], 0 if "winning_from" in area else winning
    if area["spots"] != own + 2 * yours:
        raise _fail(f"{where}.spots", f"{area['spots']} spots, but {own} winning numbers and {yours} your "
                                      f"numbers with their prizes are {own + 2 * yours}")
    if not winning and "specials" not in area:
        raise _fail(f"{where}.winning", "0 winning numbers (a key symbol game) leave only special symbols to "
                                        "win: give the area `specials`")
    numbers = len(_group(doc, area["numbers"]))
    if numbers <= winning:
        raise _fail(f"{where}.numbers", f"{numbers} numbers leave none for a losing spot beside {winning} "
                                        "winning numbers")
    if area.get("distinct_numbers") and numbers - winning < yours:
        raise _fail(f"{where}.distinct_numbers", f"{numbers - winning} losing numbers cannot fill {yours} "
                                                 "spots with distinct numbers")
    alls = [s["code"] for s in _group(doc, area.get("specials")) if s.get("how") == "all"] \
        if "specials" in area else []
    if len(alls) > 1:
        raise _fail(f"{where}.specials", f"{len(alls)} win-all symbols ({', '.join(alls)}): an area has at "
                                         "most one")


def _lines(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """docs/styles/lines.md, section 2: R x C <= 16; the symbol and 2 decoys; lines of 3 or more distinct
    cells, none twice; a `legend` of increasing numbers of lines 1 .. L, each a different prize, or
    `line_prizes`, a prize a line or "shown"."""
    cells = area["rows"] * area["cols"]
    if cells > 16:
        raise _fail(f"{where}.rows", f"{area['rows']} x {area['cols']} cells; at most 16")
    pictures = len(_group(doc, area["pictures"]))
    if "calls" in area:  # section 1b: the caller's pictures mark the cells
        _caller(area, where, pictures, cells)
    else:
        _line_symbols(doc, area, where, pictures)
    seen: list[set[int]] = []
    for i, line in enumerate(area["lines"]):
        if not isinstance(line, list) or not all(type(c) is int and 0 <= c < cells for c in line) \
                or len(line) < 3 or len(set(line)) != len(line):
            raise _fail(f"{where}.lines[{i}]", f"a line is a list of 3 or more distinct cells 0..{cells - 1}")
        if set(line) in seen:
            raise _fail(f"{where}.lines[{i}]", "the same line twice")
        seen.append(set(line))
    if not seen:
        raise _fail(f"{where}.lines", "list the lines that win (cells in reading order, from 0)")
    if ("legend" in area) == ("line_prizes" in area):
        raise _fail(f"{where}.legend", "a lines area pays by `legend` (a prize per number of complete lines) "
                                       "or by `line_prizes` (a prize per line): one of them")
    codes = [s.get("code") for s in _group(doc, area["prizes"])]
    if "legend" in area:
        _check(area, where, ("legend", "list"))
        last, paid = 0, []
        for i, item in enumerate(area["legend"]):
            at = f"{where}.legend[{i}]"
            if not isinstance(item, dict) or set(item) - {"lines", "prize"}:
                raise _fail(at, "must be a table { lines, prize }")
            _check(item, at, ("lines", "whole", 1, len(seen)))
            _check(item, at, ("prize", "text"))
            if item["prize"] not in codes or item["prize"] in paid:
                raise _fail(f"{at}.prize", "not one of the area's prize symbols, or the legend's already")
            if item["lines"] <= last:
                raise _fail(f"{at}.lines", "the legend lists numbers of lines in increasing order")
            last = item["lines"]
            paid.append(item["prize"])
        if not paid:
            raise _fail(f"{where}.legend", "list the prize of each number of complete lines")
        return
    listed = area["line_prizes"]
    if listed == "shown":
        return
    if not isinstance(listed, list):
        raise _fail(f"{where}.line_prizes", 'a list of the prize printed for each line, or "shown" (a prize '
                                            'spot a line)')
    for i, code in enumerate(listed):
        if code not in codes:
            raise _fail(f"{where}.line_prizes[{i}]", f"{str(code)[:80]!r} is not one of the area's prize "
                                                     "symbols")
    if len(listed) != len(seen):
        raise _fail(f"{where}.line_prizes", f"{len(listed)} prize(s) for {len(seen)} lines: one a line, in "
                                            "the order of `lines`")


def _caller(area: dict[str, Any], where: str, pictures: int, cells: int) -> None:
    """docs/styles/lines.md, section 1b: no `symbol` or `symbols`; each picture at most once on a board
    (cells .. 255 pictures); the caller shows 1 .. P - 1 of them."""
    for key in ("symbol", "symbols"):
        if key in area:
            raise _fail(f"{where}.{key}", "a lines area with `calls` marks the cells the caller's pictures "
                                          "show: no `symbol` or `symbols`")
    if not cells <= pictures <= 255:
        raise _fail(f"{where}.pictures", f"{pictures} pictures for {cells} cells: a board marked by a caller "
                                         f"shows each picture at most once ({cells} to 255 pictures)")
    _check(area, where, ("calls", "whole", 1, pictures - 1))


def _line_symbols(doc: dict[str, Any], area: dict[str, Any], where: str, pictures: int) -> None:
    """docs/styles/lines.md, sections 1a and 2: one `symbol` and 2 or more decoys, or a list of 2 or more
    `symbols` alone or beside 2 or more decoys."""
    codes = [s.get("code") for s in _group(doc, area["pictures"])]
    if "symbols" not in area:
        _check(area, where, ("symbol", "text"))
        if area["symbol"] not in codes:
            raise _fail(f"{where}.symbol", f"{area['symbol']!r} is not one of the area's pictures")
        if pictures < 3:
            raise _fail(f"{where}.pictures", "the symbol and at least 2 decoy pictures")
        return
    if "symbol" in area:
        raise _fail(f"{where}.symbol", "a lines area names one `symbol` or a list of `symbols`: one of them")
    listed = area["symbols"]
    if not isinstance(listed, list):
        raise _fail(f"{where}.symbols", f"must be a list, not {listed!r}")
    for j, code in enumerate(listed):
        if code not in codes:
            raise _fail(f"{where}.symbols[{j}]", f"{str(code)[:80]!r} is not one of the area's pictures")
        if code in listed[:j]:
            raise _fail(f"{where}.symbols[{j}]", f"{code!r} twice")
    if len(listed) < 2:
        raise _fail(f"{where}.symbols", "a list of 2 or more of the area's pictures (a single one is "
                                        "`symbol`)")
    if pictures - len(listed) == 1:
        raise _fail(f"{where}.pictures", "the symbols alone, or the symbols and at least 2 decoy pictures")


def _blackjack(doc: dict[str, Any], area: dict[str, Any], where: str, earlier: list[dict[str, Any]]) -> None:
    """docs/styles/blackjack.md, section 2: `points` and `dealer_points` one whole number a symbol of
    their group, in range; at most 4096 hands a HAND can show."""
    _roles(area, where, earlier, "numbers")
    if len(_group(doc, area["numbers"])) < 2:
        raise _fail(f"{where}.numbers", "at least 2 numbers: a hand must be able to win and to lose")
    for key, group, low, high in (("points", "numbers", 1, 99), ("dealer_points", "dealer_totals", 0, 21)):
        _roles(area, where, earlier, group)
        size, raw = len(_group(doc, area[group])), area[key]
        if not isinstance(raw, list) or not all(type(v) is int for v in raw):
            raise _fail(f"{where}.{key}", f"a list of whole numbers, one per symbol of the group "
                                          f"{area[group]!r}")
        if len(raw) != size:
            raise _fail(f"{where}.{key}", f"{size} numbers for the {size} symbols of {area[group]!r}, "
                                          f"not {len(raw)}")
        for i, v in enumerate(raw):
            if not low <= v <= high:
                raise _fail(f"{where}.{key}[{i}]", f"{low}..{high}, not {v}")
        if key == "points" and size ** area["hand_cards"] > 4096:
            raise _fail(f"{where}.hand_cards", f"{size} symbols in {area['hand_cards']} spots make "
                                               f"{size ** area['hand_cards']} hands; at most 4096")
    c, size = area.get("dealer_cards", 1), len(_group(doc, area["dealer_totals"]))  # section 9
    if size ** c > 4096:
        raise _fail(f"{where}.dealer_cards", f"{size} symbols in {c} spots make {size ** c} dealer's hands; "
                                             "at most 4096")
    refuse_count_legend(doc, area, where)  # section 10
    k, points, dealer = area["hand_cards"], area["points"], area["dealer_points"]
    if not (dealer and (k * max(points) > 21 or k * min(points) <= c * max(dealer))):  # over 21, or low
        raise _fail(f"{where}.dealer_points", f"no DEALER'S TOTAL lets all {area['hands']} hands lose: a "
                                              "ticket that wins nothing here needs one")


def _together(doc: dict[str, Any], area: dict[str, Any], where: str) -> None:
    """The rules tying a style's fields together (each contract's section 2)."""
    style = area["style"]
    if style in ("match_n", "prize_box") and area["match"] > area["spots"]:
        what = "like amounts" if style == "match_n" else "like pictures"
        raise _fail(f"{where}.match", f"{area['match']} {what} do not fit {area['spots']} spots")
    if style == "bonus_reveal" and area.get("most_alike", 1) > area["spots"]:
        raise _fail(f"{where}.most_alike", f"{area['most_alike']} alike do not fit {area['spots']} spots")
    if style == "crossword" and any(len(str(s.get("code"))) != 1 or not "A" <= str(s.get("code")) <= "Z"
                                    for s in _group(doc, area["alphabet"])):
        raise _fail(f"{where}.alphabet", "the letters' codes are the capital letters A to Z")
    if style == "maze" and [s.get("code") for s in _group(doc, area["arrows"])] != list(_ARROWS):
        raise _fail(f"{where}.arrows", f"the 4 arrows, codes {', '.join(_ARROWS)} in that order")
    if style == "crossword" and area["letters"] > len(_group(doc, area["alphabet"])):
        raise _fail(f"{where}.letters", f"must be at most {len(_group(doc, area['alphabet']))}, got "
                                        f"{area['letters']}")
    if style == "lines":
        _lines(doc, area, where)
    if style == "poker_hand":
        refuse_unfit_chart(doc, area, where)
    refuse_wide_groups(doc, area, where)  # its groups fit its uint8 code columns (codes.py)
    if style == "cards" and area.get("dealer") == "shared" and area.get("deal") == "hold_em":
        raise _fail(f"{where}.dealer", '"shared" plays five-card hands, not deal = "hold_em"')
    if style == "crossword":
        if not area["grids"]:
            raise _fail(f"{where}.grids", "at least one grid (a list of rows of '.' and '#')")
        for k, rows in enumerate(area["grids"]):  # docs/styles/crossword.md section 2, in the loader's words
            try:
                grid_shape(rows)
            except ValueError as exc:
                raise _fail(f"{where}.grids[{k}]", str(exc)) from None
        if "legends" in area and "legend" in area:
            raise _fail(f"{where}.legends", "one legend over all the grids (`legend`) or one a grid "
                                            "(`legends`), not both")
        if "legends" not in area and "legend" not in area:
            raise _fail(f"{where}.legend", "missing field")


def _roles(area: dict[str, Any], where: str, earlier: list[dict[str, Any]], through: str = "") -> None:
    """Each symbol group takes one role (docs/new-game.md, section 1: numbers, prizes, specials,
    multipliers, pictures, letters), whichever areas name it; `through`: the area's groups up to that key."""
    roles: dict[str, str] = {}
    for a in [*earlier, area]:
        style = str(a.get("style"))
        order = [r[0] for r in _RULES.get(style, []) if r[1] == "group"]  # the style's reading order
        order += ["prizes", "specials"] if style == "key_number_match" else []
        order = order[:order.index(through) + 1] if a is area and through else order
        for key in order:
            group = a.get(key)
            if not isinstance(group, str):
                continue
            taken = roles.setdefault(group, GROUP_ROLES[key])
            if taken != GROUP_ROLES[key] and a is area:
                raise _fail(f"{where}.{key}", f"group {group!r} is already used as {taken}")


def refuse_unfit_area(doc: dict[str, Any], area: dict[str, Any], where: str, earlier: list[dict[str, Any]]) \
        -> None:
    """UnusableInput naming the first field of `area` (a spec's [[areas]] table of a known style; `earlier`
    the areas before it) its style's contract refuses: left out, out of range, or at odds with another."""
    style = area["style"]
    for key in area:  # an unknown field first, as the loader reads an area (docs/new-game.md, section 2)
        if key not in AREA_FIELDS[style] | {"id", "style", "labels", "per_row"}:
            raise _fail(f"{where}.{key}", "unknown field")
    if style == "ticket_multiplier" and any(a.get("style") == style for a in earlier):
        raise _fail(f"{where}.style", "a ticket has at most one ticket_multiplier area (one multiplier for "
                                      "the whole ticket)")
    for rule in _RULES[style]:
        _check(area, where, rule)
    if style == "ticket_multiplier":
        refuse_multiplies(area, where, earlier)
    if style == "blackjack":  # its groups' roles as the loader reads them, between its lists
        _blackjack(doc, area, where, earlier)
    _roles(area, where, earlier)
    if style == "key_number_match":
        _key_number_match(doc, area, where, earlier)
    if style == "keno":
        refuse_unfit_keno(area, where, len(_group(doc, area["numbers"])),
                          [str(s.get("code")) for s in _group(doc, area["prizes"])])
    _together(doc, area, where)
    if style == "yours_beats_theirs":
        refuse_pair_multipliers(doc, area, where)
    refuse_unshaped_lists(doc, area, where)
    _check(area, where, ("per_row", "whole", 1, 32, _OPTIONAL))  # docs/new-game.md (f): proofs only
    refuse_label_count(area, where)  # then its labels, one a section (labels.py)
