"""A format-2 spec's prize lines and symbols that no tier's win shows: fields nothing uses, refused as
poolgen's loader refuses them, naming the same field in the same words (each style's contract, section 2:
docs/styles/<style>.md). A spec `check` refuses must not pass `verify --spec` in silence.

Written from the contracts: a legend line (`symbol_count`, `lines`, `crossword`'s `legend` or `legends`)
or a bingo pattern whose prize no win of the area lists; a `lines` area's printed line prize
(`line_prizes`) no win lists, or with `line_prizes = "shown"` a prize of `prizes` no win lists; a
crossword's `bonus` no `how = "bonus"` win wins; a multiplier symbol no win uses (`ticket_multiplier`: a
win of its code; `match_n`: a `how = "multiplier"` win of its `by`); a `key_number_match` special symbol
no win shows (a win shows the area's first special of its `how`, and for a multiplier of its `by`); a
`poker_hand` chart line no win pays; a prize symbol no tier wins whose group only areas drawing their
PRIZE boxes from their wins name (prize_box, cards, add_up, yours_beats_theirs)."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

_NEVER_WINS = "(every ticket would print it in the legend, and it could never win)"


def _unpaid_line(lines: list[Any], at: str, paid: set[str]) -> tuple[str, str] | None:
    for i, line in enumerate(lines):
        if line["prize"] not in paid:
            return f"{at}[{i}].prize", f"no tier wins {line['prize']!r} {_NEVER_WINS}"
    return None


def _lines(area: dict[str, Any], groups: dict[str, list[dict[str, Any]]], paid: set[str]) \
        -> tuple[str, str] | None:
    """A lines area (docs/styles/lines.md, section 2) pays by its `legend`, by a prize printed for each
    line (`line_prizes`, a list), or by a prize spot a line (`line_prizes = "shown"`)."""
    line_prizes = area.get("line_prizes")
    if line_prizes == "shown":
        code = next((s["code"] for s in groups[area["prizes"]] if s["code"] not in paid), None)
        return None if code is None else \
            ("prizes", f"no tier wins {code!r} (no line's prize spot would ever show it)")
    if line_prizes is not None:
        if not isinstance(line_prizes, list):
            raise UnusableInput('line_prizes: a list of the prize printed for each line, or "shown" (a prize '
                                'spot a line)')
        for i, code in enumerate(line_prizes):
            if code not in paid:
                return f"line_prizes[{i}]", f"no tier wins {code!r} (every ticket would print it for line " \
                                            f"{i + 1}, and it could never win)"
        return None
    return _unpaid_line(area["legend"], "legend", paid)


def _poker_chart(area: dict[str, Any], paid: set[str]) -> tuple[str, str] | None:
    """A poker_hand area (docs/styles/poker_hand.md, section 2): a chart line no win pays."""
    for i, line in enumerate(area["chart"]):
        if line["prize"] not in paid:
            return f"chart[{i}].prize", f"no tier wins {line['prize']!r} (every ticket would print it in " \
                                        "the chart, and it could never win)"
    return None


def _never_pays(kind: str, code: str) -> str:
    """`kind`: "multiplier", "automatic" or "win-all"."""
    if kind == "multiplier":
        return f"no tier wins with its multiplier {code!r} (the game would print a multiplier that never " \
               "pays)"
    return f"no tier wins with its {kind} symbol {code!r} (the game would print a symbol that never pays)"


def _specials(symbols: list[dict[str, Any]], wins: list[dict[str, Any]]) -> tuple[str, str] | None:
    def first(how: object, by: object) -> int | None:
        return next((k for k, s in enumerate(symbols)
                     if s.get("how") == how and (how != "multiplier" or s.get("by") == by)), None)

    shown = {first(w["how"], w.get("by")) for w in wins if w["how"] != "match"}
    for k, s in enumerate(symbols):
        if k in shown:
            continue
        how, code = s.get("how"), s["code"]
        head = symbols[first(how, s.get("by")) or 0]
        if head is not s:
            kind = f"multiplier symbol by {s.get('by')}" if how == "multiplier" else f"{how} symbol"
            return "specials", f"a win shows the area's first {kind}, {head['code']!r}: {code!r} is never " \
                               "shown"
        return "specials", _never_pays("win-all" if how == "all" else str(how), code)
    return None


def unpaid_field(area: dict[str, Any], groups: dict[str, list[dict[str, Any]]],
                 wins: list[dict[str, Any]]) -> tuple[str, str] | None:
    """The first field of `area` (a spec's area table) no win of `wins` (the area's, every tier's) uses,
    and why; None if every one is used."""
    style, paid = area.get("style"), {w["prize"] for w in wins}
    if style == "lines":
        return _lines(area, groups, paid)
    if style == "symbol_count" or style == "blackjack" and area.get("pays") == "count":
        return _unpaid_line(area["legend"], "legend", paid)
    if style == "bingo":
        return _unpaid_line(area["patterns"], "patterns", paid)
    if style == "crossword":
        matched = {w["prize"] for w in wins if w["how"] == "match"}
        if "legends" in area:
            for g, legend in enumerate(area["legends"]):
                if (said := _unpaid_line(legend, f"legends[{g}]", matched)) is not None:
                    return said
        elif (said := _unpaid_line(area["legend"], "legend", matched)) is not None:
            return said
        if "bonus" in area and not any(w["how"] == "bonus" for w in wins):
            return "bonus", "no tier wins it (every ticket would print it, and it could never win)"
        return None
    if style == "poker_hand":
        return _poker_chart(area, paid)
    if style == "keno":  # docs/styles/keno.md, section 2: a key line no win pays
        said = _unpaid_line(area["key"], "key", paid)
        return None if said is None else (said[0], said[1].replace("legend", "key"))
    if style == "ticket_multiplier":
        unused = (s for s in groups[area["multipliers"]] if s["code"] not in paid)
    elif style == "match_n" and "multipliers" in area:
        unused = (s for s in groups[area["multipliers"]]
                  if not any(w["how"] == "multiplier" and w.get("by") == s.get("by") for w in wins))
    elif style == "key_number_match" and "specials" in area:
        return _specials(groups[area["specials"]], wins)
    else:
        return None
    s = next(unused, None)
    return None if s is None else ("multipliers", _never_pays("multiplier", s["code"]))


def refuse_unpaid(doc: dict[str, Any], groups: dict[str, list[dict[str, Any]]]) -> None:
    """UnusableInput `areas[i].FIELD: not used: WHY` for the first area, in spec order, with a field no
    tier's win uses."""
    for i, area in enumerate(doc["areas"]):
        wins = [w for t in doc["tiers"] for w in t["wins"] if w["area"] == area["id"]]
        try:
            said = unpaid_field(area, groups, wins)
        except UnusableInput as exc:  # a field of the area's, not of the spec's top level
            raise UnusableInput(f"areas[{i}].{exc}") from None
        if said is not None:
            raise UnusableInput(f"areas[{i}].{said[0]}: not used: {said[1]}")
    _refuse_unshown_prizes(doc)


# styles whose PRIZE boxes show a prize drawn in proportion to the area's wins (each contract, section 7)
DRAWN_PRIZES = frozenset({"prize_box", "cards", "add_up", "yours_beats_theirs"})


def _refuse_unshown_prizes(doc: dict[str, Any]) -> None:
    """A prize symbol no tier wins in a group only areas of DRAWN_PRIZES with wins name: no ticket would
    show or pay it (docs/new-game.md, section 1). A drawn area without a win shows every prize (each
    weighs 1), as any other area naming the group may."""
    won = {(w["area"], w["prize"]) for t in doc["tiers"] for w in t["wins"]}
    drawn: dict[str, set[str]] = {}  # group -> the codes its drawn areas' wins show
    shown: set[str] = set()  # groups some area may show whatever the wins
    for area in doc["areas"]:
        listed = {code for a, code in won if a == area["id"]}
        if area["style"] in DRAWN_PRIZES and listed:
            drawn.setdefault(area["prizes"], set()).update(listed)
        else:
            shown |= {v for k, v in area.items() if k not in ("id", "style") and isinstance(v, str)}
    for i, s in enumerate(doc["symbols"]):
        group, code = s.get("group"), s.get("code")
        if group in drawn and group not in shown and code not in drawn[group]:
            raise UnusableInput(f"symbols[{i}]: not used: no tier wins {code!r} and no area shows it (a "
                                f"PRIZE of {', '.join(sorted(DRAWN_PRIZES))} shows the prizes its area's "
                                "tiers win)")
