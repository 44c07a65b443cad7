"""A format-2 spec's tier wins held to what their area's style takes (docs/styles/<style>.md, section 2:
"A tier's win in the area is ..."), refused as poolgen's loader refuses them, naming the same field:
`tiers[i].wins[j].prize` (not a prize the area shows or prints), `.how` (a `how` the style, or the
area, has no symbol for), `.by` (a `by` the win takes not, or a multiplier the area has no symbol of),
`.shows` (a win-all win's pinned prizes that are not the area's, or a pin on another win), and the win
as a whole (`tiers[i].wins[j]`) when it multiplies a free ticket (docs/new-game.md, section 1).

Each style's win, by its contract: the styles whose game, pair or spot wins the prize it shows take
`how = "match"` (bonus_reveal: `"reveal"`) of a code of the area's `prizes`, no `by`; symbol_count,
lines, crossword, bingo and maze take a prize their legend, lines, patterns or exits list;
ticket_multiplier `how = "ticket"` of a multiplier's code; match_n a `"match"`, or a `"multiplier"`
by a k of its multipliers; key_number_match a `"match"` (by its `match_by`), `"automatic"` or
`"multiplier"` win of one of its specials, or a win-all `"all"` whose prize is an amount."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput
from audit.read.specs.money import money, sign_of
from audit.read.specs.multiplies import covers

__all__ = ["refuse_unwinnable"]

# the styles whose win is the prize shown: the one `how` each takes, and what it says
_SHOWN = {"add_up": ("match", "an add_up win is \"match\" (a game wins its prize)"),
          "blackjack": ("match", "a blackjack win is \"match\" (a hand wins its prize)"),
          "bonus_reveal": ("reveal", "a bonus_reveal win is \"reveal\""),
          "cards": ("match", "a cards win is \"match\" (a game wins its prize)"),
          "prize_box": ("match", "a prize_box win is \"match\" (the prize its game's box shows)"),
          "yours_beats_theirs": ("match", "a yours_beats_theirs win is \"match\" (a pair wins its prize)")}
# the styles whose win is a prize their own list names: that list's prize codes, and what they are
_LISTED = {"symbol_count": ("legend", "one the legend lists",
                            "a symbol_count win is \"match\" (the legend's prize for its count)"),
           "bingo": ("patterns", "a pattern's",
                     "a bingo win is \"match\" (a card's highest pattern's prize)"),
           "maze": ("exits", "an exit's", "a maze win is \"match\" (the prize of the exit a path leaves by)"),
           "keno": ("key", "one the key pays",
                    "a keno win is \"match\" (the key's prize for a game's matches)"),
           "blackjack_count": ("legend", "one the legend lists",
                               "a blackjack win is \"match\" (the legend's prize for the hands won)"),
           "poker_hand": ("chart", "one the chart pays",
                          "a poker_hand win is \"match\" (the chart's prize for the hand)")}
_NO_FREE = "a free ticket cannot be multiplied"


class _Refused(Exception):
    """A win refused: the win's field ("" for the win as a whole) and why."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(why)
        self.field = field


def _codes(doc: dict[str, Any], group: object) -> list[dict[str, Any]]:
    return [s for s in doc["symbols"] if s.get("group") == group] if isinstance(group, str) else []


def _prize(symbols: list[dict[str, Any]], code: str,
           said: str = "one of its prize symbols") -> dict[str, Any]:
    found = next((s for s in symbols if s.get("code") == code), None)
    if found is None:
        raise _Refused("prize", f"prize {code!r} is not {said}")
    return found


def _multiplier_symbol(by: object, ks: list[Any], prize: dict[str, Any]) -> None:
    """A multiplier win names one of the area's multiplier symbols by its `by`, and a cash prize."""
    if by is None or by not in ks:
        raise _Refused("by", f"no multiplier symbol with by = {by} (it has: "
                             f"{', '.join(map(str, ks)) or 'none'})")
    if prize.get("free"):
        raise _Refused("", _NO_FREE)


def _no_by(by: object, why: str) -> None:
    if by is not None:
        raise _Refused("by", why)


def _lines(doc: dict[str, Any], area: dict[str, Any], how: str, by: object, code: str) -> None:
    prizes = _codes(doc, area["prizes"])
    shown = area.get("line_prizes") == "shown"
    if shown:
        listed, where = prizes, "area's prizes hold"
    elif "line_prizes" in area:
        listed, where = [s for c in area["line_prizes"] for s in prizes if s["code"] == c], "lines print"
    else:
        listed = [s for line in area["legend"] for s in prizes if s["code"] == line.get("prize")]
        where = "legend lists"
    _prize(listed, code, f"one the {where}")
    if how != "match":
        raise _Refused("how", f"how = {how!r}: a lines win is \"match\" (the prize of its lines)")
    _no_by(by, "the legend's prize wins as listed: no `by`")


def _crossword(doc: dict[str, Any], area: dict[str, Any], how: str, by: object, code: str) -> None:
    bonus = area.get("bonus")
    if how == "bonus" and isinstance(bonus, dict):
        if code != bonus.get("prize"):
            raise _Refused("prize", f"prize {code!r} is not the bonus word's ({bonus.get('prize')!r})")
        _no_by(by, "the bonus word's prize wins as listed: no `by`")
        return
    legends = area["legends"] if "legends" in area else [area["legend"]]
    grid = next((g for g, legend in enumerate(legends)
                 if any(isinstance(x, dict) and x.get("prize") == code for x in legend)), None)
    if grid is None or not any(s.get("code") == code for s in _codes(doc, area["prizes"])):
        raise _Refused("prize", f"prize {code!r} is not one the legend lists")
    if how != "match":
        also = " or \"bonus\" (its bonus word's prize)" if bonus else ""
        raise _Refused("how", f"how = {how!r}: a crossword win is \"match\" (the legend's prize for its "
                              f"number of completed words){also}")
    doubler = area.get("doubler")
    if isinstance(doubler, dict) and by is not None and by != 1:
        ks = doubler.get("by")
        k = ks[grid] if isinstance(ks, list) and grid < len(ks) else ks
        if by != k:
            raise _Refused("by", f"by = {by}: a doubled legend prize is by = {k} (the area's doubler), an "
                                 "undoubled one has no `by`")
        return
    _no_by(by, "the legend's prize wins as listed: no `by`")


def _match_n(doc: dict[str, Any], area: dict[str, Any], how: str, by: object, code: str) -> None:
    prize = _prize(_codes(doc, area["prizes"]), code)
    if how == "match":
        _no_by(by, "a match wins the amount itself: no `by`")
    elif how == "multiplier":
        _multiplier_symbol(by, [s.get("by") for s in _codes(doc, area.get("multipliers"))], prize)
    else:
        raise _Refused("how", f"how = {how!r}: a match_n win is \"match\" or \"multiplier\"")


def _poker_joker(area: dict[str, Any], by: object, code: str) -> None:
    """docs/styles/poker_hand.md, section 2: with `joker_multiplier` k, `by = k` a hand showing the JOKER,
    no `by` one without it; never a way no hand is (two_pair with the JOKER, five_of_a_kind without)."""
    k = area["joker_multiplier"]
    if by is not None and by != k:
        raise _Refused("by", f"by = {by}: a hand showing the JOKER wins by = {k} (joker_multiplier), one "
                             "without it has no `by`")
    hand = next(x.get("hand") for x in area["chart"] if isinstance(x, dict) and x.get("prize") == code)
    if hand == "two_pair" and by is not None:
        raise _Refused("by", "no two_pair hand shows the JOKER (the JOKER makes it three of a kind or "
                             f"better): no ticket can win {code!r} with it")
    if hand == "five_of_a_kind" and by is None:
        raise _Refused("by", f"every five_of_a_kind hand shows the JOKER: no ticket can win {code!r} "
                             "without it")


def _winning(doc: dict[str, Any], area: dict[str, Any]) -> object:
    if "winning_from" in area:
        source = next(a for a in doc["areas"] if a.get("id") == area["winning_from"])
        return source.get("winning")
    return area.get("winning")


def _key_number_match(doc: dict[str, Any], area: dict[str, Any], how: str, by: object, code: str) -> None:
    specials = _codes(doc, area.get("specials"))
    if how == "all":
        if not any(s.get("how") == "all" for s in specials):
            raise _Refused("how", "it has no win-all symbol")
        _no_by(by, "a win-all win has no `by`")
        try:
            money(code, "prize", sign_of(doc))  # in the game's currency, as every amount
        except UnusableInput as exc:
            raise _Refused("prize", str(exc).removeprefix("prize: ")) from None
        return
    prize = _prize(_codes(doc, area["prizes"]), code)
    if how == "match":
        match_by = area.get("match_by", 1)
        if not _winning(doc, area):
            raise _Refused("how", "the area has no WINNING NUMBERS to match (winning = 0): only its special "
                                  "symbols win")
        if by is not None and by != match_by:
            raise _Refused("by", f"a match here pays {match_by} times the prize shown, not {by}")
        if prize.get("free") and match_by > 1:
            raise _Refused("", f"{_NO_FREE} (the area's matches pay {match_by} times)")
    elif how == "automatic":
        _no_by(by, "an automatic win has no `by`")
        if not any(s.get("how") == "automatic" for s in specials):
            raise _Refused("how", "it has no automatic-win symbol")
    elif how == "multiplier":
        _multiplier_symbol(by, [s.get("by") for s in specials if s.get("how") == "multiplier"], prize)
    else:
        raise _Refused("how", f"how = {how!r}: a key number match win is \"match\", \"automatic\", "
                              "\"multiplier\" or \"all\"")


def _win(doc: dict[str, Any], area: dict[str, Any], how: str, by: object, code: str) -> None:
    """_Refused when the area's style does not take the win (its contract, section 2)."""
    style = area["style"]
    if style == "blackjack" and area.get("pays") == "count":  # blackjack.md section 10
        style = "blackjack_count"
    if style in _SHOWN:
        expected, said = _SHOWN[style]
        prize = _prize(_codes(doc, area["prizes"]), code)
        if how != expected:
            raise _Refused("how", f"how = {how!r}: {said}")
        if style == "yours_beats_theirs" and "multipliers" in area:  # yours_beats_theirs.md section 2
            ks = [s.get("by") for s in _codes(doc, area["multipliers"])]
            have = ", ".join(map(str, ks))
            if by is None:
                raise _Refused("by", "missing field (a pair's win pays by its multiplier spot: "
                                     f"by = one of {have})")
            if by not in ks:
                raise _Refused("by", f"{by} is not the by of one of the area's multipliers ({have})")
            if prize.get("free"):
                raise _Refused("", _NO_FREE)
            return
        _no_by(by, "a win pays the prize shown: no `by`")
    elif style in _LISTED:
        key, listed, said = _LISTED[style]
        if not any(isinstance(x, dict) and x.get("prize") == code for x in area[key]) \
                or not any(s.get("code") == code for s in _codes(doc, area["prizes"])):
            raise _Refused("prize", f"prize {code!r} is not {listed}")
        if how != "match":
            raise _Refused("how", f"how = {how!r}: {said}")
        if style == "poker_hand" and "joker_multiplier" in area:
            _poker_joker(area, by, code)
            return
        _no_by(by, "a listed prize wins as listed: no `by`")
    elif style == "ticket_multiplier":
        _prize(_codes(doc, area["multipliers"]), code, "one of its multiplier symbols")
        if how != "ticket":
            raise _Refused("how", f"how = {how!r}: a ticket_multiplier win is \"ticket\" (it multiplies the "
                                  "ticket's other wins)")
        _no_by(by, "the multiplier symbol says k: no `by`")
    elif style == "lines":
        _lines(doc, area, how, by, code)
    elif style == "crossword":
        _crossword(doc, area, how, by, code)
    elif style == "match_n":
        _match_n(doc, area, how, by, code)
    elif style == "key_number_match":
        _key_number_match(doc, area, how, by, code)


def _way(doc: dict[str, Any], area: dict[str, Any], w: dict[str, Any]) -> tuple[str, str, int, str]:
    """What tells two wins apart: area, how, the k it pays by (as given, or the style's: a match in a
    key_number_match area by its `match_by`, a ticket multiplier by its symbol's), and its prize (a
    win-all win's by the sum, in cents)."""
    how, by = w["how"], w.get("by")
    if how == "all":
        return area["id"], how, 1, str(money(w["prize"], "prize", sign_of(doc)))
    if by is None and how == "match" and area["style"] == "key_number_match":
        by = area.get("match_by", 1)
    if how == "ticket":
        by = next(s.get("by") for s in _codes(doc, area["multipliers"]) if s.get("code") == w["prize"])
    return area["id"], how, 1 if by is None else by, w["prize"]


def refuse_unwinnable(doc: dict[str, Any]) -> None:
    """UnusableInput naming the first win of a tier, in spec order, its area's style does not take, or a
    tier won the same way as an earlier one (docs/new-game.md, section 3: one tier written twice)."""
    areas = {a["id"]: a for a in doc["areas"]}
    ways: dict[tuple[tuple[str, str, int, str], ...], int] = {}
    for i, t in enumerate(doc["tiers"]):
        for j, w in enumerate(t["wins"]):
            where, area = f"tiers[{i}].wins[{j}]", areas[w["area"]]
            head = f"area {area['id']!r} ({area['style']})"
            try:
                _win(doc, area, w["how"], w.get("by"), w["prize"])
            except _Refused as exc:
                raise UnusableInput(f"{where}{'.' if exc.field else ''}{exc.field}: {head}: {exc}") from None
            if "shows" in w and w["how"] == "all" and area["style"] == "key_number_match":
                _shows(doc, area, w, where, head)
            elif "shows" in w:
                raise UnusableInput(f"{where}.shows: only a win-all win (how = \"all\") pins the prizes its "
                                    "area shows")
        _tier_wins(doc, t["wins"], areas, f"tiers[{i}].wins")
        way = tuple(sorted(_way(doc, areas[w["area"]], w) for w in t["wins"]))
        if way in ways:
            raise UnusableInput(f"tiers[{i}]: duplicate tier: won the same way as tiers[{ways[way]}]")
        ways[way] = i


# the most wins a tier lists in an area of the style (each contract's "at most ... in a tier"): a field
# of the area, or a number
_MOST = {"symbol_count": 1, "ticket_multiplier": 1, "bonus_reveal": "spots", "prize_box": "games",
         "cards": "games", "add_up": "games", "yours_beats_theirs": "pairs", "bingo": "cards",
         "blackjack": "hands", "maze": "starts", "key_number_match": "yours", "poker_hand": 1,
         "keno": "games"}


def _crossword_twice(area: dict[str, Any], wins: list[dict[str, Any]]) -> bool:
    """docs/styles/crossword.md, sections 2 and 10: a tier lists at most one `match` win (with `legends`, one
    a grid: the grid whose legend lists its prize) and at most one `bonus` win in a crossword area."""
    legends = area["legends"] if "legends" in area else [area["legend"]]
    def grid(code: object) -> int:
        listing = (g for g, legend in enumerate(legends) if any(x.get("prize") == code for x in legend))
        return next(listing, -1)

    grids = [grid(w["prize"]) for w in wins if w["how"] == "match"]
    return len(grids) != len(set(grids)) or sum(w["how"] == "bonus" for w in wins) > 1


def _dealt(area: dict[str, Any], w: int) -> bool:
    """docs/styles/blackjack.md, section 2: some DEALER'S TOTAL d lets w of the H HANDS win and the rest
    lose: W(d) > 0 (a k-tuple of totals 21 or less above d) and, when w < H, L(d) > 0."""
    k, totals = area["hand_cards"], {0}
    for _ in range(k):
        totals = {t + p for t in totals for p in area["points"]}
    every = w == area["hands"]
    return any(any(d < t <= 21 for t in totals) and (every or any(not d < t <= 21 for t in totals))
               for d in area["dealer_points"])


def _tier_wins(doc: dict[str, Any], wins: list[dict[str, Any]], areas: dict[str, dict[str, Any]],
               at: str) -> None:
    """A tier's wins together (docs/styles/play.md; each contract's section 2): at most `max_wins` (a
    ticket-wide multiplier is no win), at most the wins an area gives, and a ticket-wide multiplier beside
    another win and no free ticket."""
    counted = sum(1 for w in wins if w["how"] != "ticket")
    most = doc["play"]["max_wins"]
    if counted > most:
        raise UnusableInput(f"{at}: {counted} wins, but a ticket wins at most {most} times (play.max_wins)")
    for area in areas.values():
        mine = [w for w in wins if w["area"] == area["id"]]
        style, most_of = area["style"], _MOST.get(area["style"])
        given: Any = area[most_of] if isinstance(most_of, str) else most_of
        limit: int | None = len(given) if isinstance(given, list) else given  # a maze's starts: a list
        if style == "lines" and "legend" in area or style == "blackjack" and area.get("pays") == "count":
            limit = 1
        if style == "crossword" and _crossword_twice(area, mine):
            limit = 0
        if limit is not None and len(mine) > limit:
            raise UnusableInput(f"{at}: area {area['id']!r} ({style}): {len(mine)} wins in the area; a "
                                f"ticket wins there at most {limit} times")
        if style == "blackjack" and mine and not _dealt(area, len(mine)):
            h, n = area["hands"], len(mine)
            raise UnusableInput(f"{at}: area {area['id']!r} (blackjack): no DEALER'S TOTAL lets {n} of the "
                                f"{h} hands win and the other {h - n} lose")
    times = [w for w in wins if w["how"] == "ticket"]
    if not times:
        return
    if len(times) > 1:
        raise UnusableInput(f"{at}: {len(times)} ticket-wide multipliers; a ticket shows at most one")
    box = areas[times[0]["area"]]
    mine = [w for w in wins if covers(areas, box, w)]
    if not mine and "multiplies" in box:
        raise UnusableInput(f"{at}: a multiplier and no win in what it multiplies: nothing to multiply")
    if not mine:
        raise UnusableInput(f"{at}: a ticket-wide multiplier and no other win: nothing to multiply (a tier "
                            "that wins nothing lists no multiplier; `multipliers_on_losers` shows them on "
                            "losers)")
    for w in mine:
        area = areas[w["area"]]
        group = area.get("prizes") if w["how"] not in ("ticket", "all") else None
        if any(s.get("code") == w["prize"] and s.get("free") for s in _codes(doc, group)):
            raise UnusableInput(f"{at}: a ticket-wide multiplier on a free ticket: a free ticket is not "
                                "multiplied")


def _shows(doc: dict[str, Any], area: dict[str, Any], w: dict[str, Any], where: str, head: str) -> None:
    """docs/styles/key_number_match.md, section 2: a win-all win's `shows` names some of the area's prize
    symbols by code, each a whole number of spots 1 .. Y, filling the Y spots and adding up to its prize."""
    shows, yours = w["shows"], area["yours"]
    if not isinstance(shows, dict):
        raise UnusableInput(f"{where}.shows: must be a table, not {shows!r}")
    prizes = {s["code"]: s for s in _codes(doc, area["prizes"])}
    for code, count in shows.items():
        if code not in prizes:
            raise UnusableInput(f"{where}.shows: {head}: {code!r} is not one of the area's prize symbols "
                                f"({', '.join(prizes)})")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= yours:
            raise UnusableInput(f"{where}.shows: {head}: {code!r}: {count!r} is not a whole number of spots "
                                f"1 .. {yours}")
    if sum(shows.values()) != yours:
        raise UnusableInput(f"{where}.shows: {head}: {sum(shows.values())} prizes shown, but the win-all "
                            f"symbol wins the area's {yours}: its spots hold one prize each")
    sign = sign_of(doc)
    total = sum(n * money(prizes[c]["value"], f"{where}.shows", sign) for c, n in shows.items())
    if total != money(w["prize"], f"{where}.prize", sign):
        raise UnusableInput(f"{where}.shows: {head}: the prizes shown add up to {total} cents, but the win "
                            f"pays {w['prize']}")
