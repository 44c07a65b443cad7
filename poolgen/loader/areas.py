"""A printed spec's play areas and the wins of its tiers (docs/new-game.md, docs/styles/play.md).

Each `[[areas]]` table names its style (a `poolgen.styles.AREA_STYLES` name), which reads the rest
of the table through an `AreaContext`; each tier lists its wins, each in one area, which the area's
style accepts or refuses (`read_win`, `check_wins`). Everything a style cannot lay out is refused
here, with one line naming the file and the field, so a spec that loads can be generated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from poolgen.game.model import FixedPrize, Symbol, Tier, TierFigures
from poolgen.game.multiplied import counted_wins, ticket_cents, ticket_problem
from poolgen.game.play import Area, AreaStyle, Win, WinError
from poolgen.limits import MAX_TICKET_SPOTS
from poolgen.loader.published import printed_number
from poolgen.loader.reader import Reader
from poolgen.styles import AREA_STYLES, SHOWN_PRIZES

__all__ = ["NAME", "AreaContext", "read_areas", "read_tiers"]

_TIER = {"id", "get", "prize", "count", "published_cost", "published_odds", "wins"}
_WIN = {"area", "prize", "how", "by", "shows"}
NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")  # an area id, as a game id


class AreaContext:
    """What an area style reads its [[areas]] table with (`poolgen.game.play.AreaReading`): the
    reader, the symbol groups (each taking one role), and the areas read so far."""

    def __init__(self, r: Reader, groups: Mapping[str, Sequence[Symbol]]) -> None:
        self._r, self.groups = r, groups
        self.roles: dict[str, str] = {}
        self._areas: list[Area] = []

    @property
    def r(self) -> Reader:
        return self._r

    @property
    def areas(self) -> Sequence[Area]:
        return self._areas

    def add(self, area: Area) -> None:
        self._areas.append(area)

    def group(self, table: Mapping[str, Any], key: str, where: str, role: str,
              required: bool = True) -> tuple[Symbol, ...]:
        """The symbols of the group an area field names, taking the given role."""
        name = self._r.get(table, key, where, str, required=required)
        if name is None:
            return ()
        if name not in self.groups:
            raise self._r.fail(f"{where}.{key}", f"no [[symbols]] of group {name!r}")
        if self.roles.setdefault(name, role) != role:
            raise self._r.fail(f"{where}.{key}", f"group {name!r} is already used as {self.roles[name]}")
        return tuple(self.groups[name])

    def whole(self, table: Mapping[str, Any], key: str, where: str, low: int, required: bool = True,
              default: int = 0, high: int | None = None) -> int:
        if key not in table and not required:
            return default
        value: int = self._r.get(table, key, where, int)
        if value < low:
            raise self._r.fail(f"{where}.{key}", f"must be at least {low}, got {value}")
        if high is not None and value > high:
            raise self._r.fail(f"{where}.{key}", f"must be at most {high}, got {value}")
        return value


def read_areas(r: Reader, doc: Mapping[str, Any], ctx: AreaContext) -> list[Area]:
    raw = doc.get("areas")
    if not isinstance(raw, list) or not raw:
        raise r.fail("areas", "missing: a spec declares its play areas as [[areas]]")
    for i, a in enumerate(raw):
        where = f"areas[{i}]"
        if not isinstance(a, dict):
            raise r.fail(where, "must be a table")
        style = r.get(a, "style", where, str)
        module = AREA_STYLES.get(style)
        if module is None:
            raise r.fail(f"{where}.style", f"unknown style {style!r} (known: {', '.join(AREA_STYLES)})")
        r.known(a, where, {"id", "style", "labels", "per_row"} | module.FIELDS)
        area_id = r.get(a, "id", where, str)
        if not NAME.fullmatch(area_id):
            raise r.fail(f"{where}.id", f"{area_id[:80]!r} is not a lower-case name (a-z, 0-9, _; at most "
                                        "64)")
        if any(x.id == area_id for x in ctx.areas):
            raise r.fail(f"{where}.id", f"duplicate area id {area_id!r}")
        spots = a.get("spots")
        if isinstance(spots, int) and spots > MAX_TICKET_SPOTS:  # before a style sizes anything by it
            raise r.fail(f"{where}.spots", f"{spots:,} spots; a ticket has at most {MAX_TICKET_SPOTS:,}")
        params = module.read_area(ctx, a, where)
        per_row = ctx.whole(a, "per_row", where, 1, required=False, high=32) or None
        ctx.add(Area(area_id, style, module, params, _labels(r, a, where, module, area_id, params), per_row))
    return list(ctx.areas)


def _labels(r: Reader, a: Mapping[str, Any], where: str, module: AreaStyle[Any], area_id: str,
            params: Any) -> tuple[str, ...]:
    """`labels`: the titles of the area's sections as the ticket prints them (the proof draws them
    instead of the style's own words), one per section the style draws."""
    if "labels" not in a:
        return ()
    labels = a["labels"]
    if not isinstance(labels, list) or not all(isinstance(x, str) and 0 < len(x) <= 200 for x in labels):
        raise r.fail(f"{where}.labels", "must be a list of section titles (strings of 1 to 200 characters)")
    blank = dict.fromkeys(module.columns(area_id, params), 0)
    sections = [title for title, _ in module.face(area_id, params, blank)]
    if len(labels) != len(sections):
        raise r.fail(f"{where}.labels", f"{len(labels)} title(s) for the area's {len(sections)} section(s) "
                                        f"({'; '.join(sections)})")
    return tuple(labels)


def read_tiers(r: Reader, doc: Mapping[str, Any], areas: Mapping[str, Area],
               max_wins: int) -> tuple[tuple[Tier, ...], dict[str, tuple[Win, ...]]]:
    """The tiers and, by tier id, their wins."""
    raw = doc.get("tiers")
    if not isinstance(raw, list) or not raw:
        raise r.fail("tiers", "missing: a spec declares its prize tiers as [[tiers]]")
    tiers: list[Tier] = []
    wins: dict[str, tuple[Win, ...]] = {}
    ways: dict[tuple[tuple[str, str, int, str, int], ...], int] = {}
    for i, t in enumerate(raw):
        where = f"tiers[{i}]"
        if not isinstance(t, dict):
            raise r.fail(where, "must be a table")
        r.known(t, where, _TIER)
        tier_id = r.get(t, "id", where, str)
        if not tier_id.strip():
            raise r.fail(f"{where}.id", "must not be blank: the pool files, the manifest and [packs] name "
                         "a tier by its id")
        if tier_id in wins or tier_id == "lose":
            raise r.fail(f"{where}.id", f"duplicate tier id {tier_id!r}")
        label = r.get(t, "get", where, str, required=False)
        r.money(t, "published_cost", where, required=False)
        odds = printed_number(r, t, "published_odds", where)  # the row's "1 in", as printed
        listed = r.get(t, "wins", where, list)
        if not listed:
            raise r.fail(f"{where}.wins", "a prize tier is won some way: list its wins")
        tier_wins = tuple(_win(r, w, f"{where}.wins[{j}]", areas) for j, w in enumerate(listed))
        if counted_wins(tier_wins) > max_wins:
            raise r.fail(f"{where}.wins", f"{counted_wins(tier_wins)} wins, but a ticket wins at most "
                                          f"{max_wins} times (play.max_wins)")
        for area in areas.values():
            mine = tuple(w for w in tier_wins if w.area == area.id)
            if mine:
                why = area.module.check_wins(area.params, mine)
                if why:
                    raise r.fail(f"{where}.wins", f"area {area.id!r} ({area.style}): {why}")
        why = ticket_problem(tier_wins)
        if why:
            raise r.fail(f"{where}.wins", why)
        prize = ticket_cents(tier_wins)  # the sum of its wins, times a ticket-wide multiplier's k
        stated = r.money(t, "prize", where, required=False)
        if stated is not None and stated != prize:
            raise r.fail(f"{where}.prize", f"{stated} cents, but its wins add up to {prize} cents")
        way = tuple(sorted(w.key() for w in tier_wins))
        if way in ways:
            raise r.fail(where, f"duplicate tier: won the same way as tiers[{ways[way]}]")
        ways[way] = i
        wins[tier_id] = tier_wins
        free = any(w.prize.free for w in tier_wins)
        tiers.append(Tier(tier_id, i + 1, r.count(t, "count", where), FixedPrize(prize, free),
                          TierFigures(label=label, cost=t.get("published_cost"), odds=odds)))
    return tuple(tiers), wins


def _win(r: Reader, w: object, where: str, areas: Mapping[str, Area]) -> Win:
    if not isinstance(w, dict):
        raise r.fail(where, "must be a table { area, prize, how }")
    r.known(w, where, _WIN)
    area = areas.get(r.get(w, "area", where, str))
    if area is None:
        raise r.fail(f"{where}.area", f"no area {w['area']!r} (areas: {', '.join(areas)})")
    how = r.get(w, "how", where, str)
    by = r.get(w, "by", where, int, required=False)
    code = r.get(w, "prize", where, str)
    pins = SHOWN_PRIZES.get(area.style)
    if pins is not None and how == "all" and isinstance(w.get("shows"), dict):  # no search: the pin decides
        try:
            prize, by, shown = pins(area.params, by, code, w["shows"])
        except WinError as exc:
            raise r.fail(f"{where}.{exc.field}", f"area {area.id!r} ({area.style}): {exc}") from None
        except ValueError as exc:
            raise r.fail(f"{where}.shows", f"area {area.id!r} ({area.style}): {exc}") from None
        return Win(area.id, how, by, prize, shows=shown)
    try:
        prize, by = area.module.read_win(area.params, how, by, code)
    except WinError as exc:  # one field of the win says so: name it
        raise r.fail(f"{where}.{exc.field}", f"area {area.id!r} ({area.style}): {exc}") from None
    except ValueError as exc:  # the win as a whole (a free ticket multiplied, say)
        raise r.fail(where, f"area {area.id!r} ({area.style}): {exc}") from None
    win = Win(area.id, how, by, prize, over=getattr(area.module, "covers", lambda _: ())(area.params))
    if "shows" not in w:
        return win
    r.get(w, "shows", where, dict)  # not a table: refused as such
    raise r.fail(f"{where}.shows", "only a win-all win (how = \"all\") pins the prizes its area shows")


# styles whose PRIZE boxes show a prize drawn in proportion to the area's wins (each contract, section 7)
DRAWN_PRIZES = frozenset({"prize_box", "cards", "add_up", "yours_beats_theirs", "blackjack"})


def refuse_unshown_prizes(r: Reader, doc: Mapping[str, Any], areas: Sequence[Area],
                          wins: Mapping[str, Sequence[Win]]) -> None:
    """A prize symbol no tier wins in a group only areas of DRAWN_PRIZES with wins name: no ticket would
    show it or pay it, a symbol nothing uses (docs/new-game.md, section 1). An area of those styles
    without a win shows every prize (each weighs 1), as any other style naming the group may."""
    won = {(w.area, w.prize.code) for ws in wins.values() for w in ws}
    drawn: dict[str, set[str]] = {}  # group -> the codes its drawn areas' wins show
    shown: set[str] = set()  # groups some area may show whatever the wins
    for area, raw in zip(areas, doc["areas"], strict=True):
        listed = {code for a, code in won if a == area.id}
        if area.style in DRAWN_PRIZES and listed:
            drawn.setdefault(raw["prizes"], set()).update(listed)
        else:
            shown |= {v for k, v in raw.items() if k not in ("id", "style") and isinstance(v, str)}
    for i, s in enumerate(doc["symbols"]):
        group, code = s.get("group"), s.get("code")
        if group in drawn and group not in shown and code not in drawn[group]:
            raise r.fail(f"symbols[{i}]", f"not used: no tier wins {code!r} and no area shows it (a "
                                          f"PRIZE of {', '.join(sorted(DRAWN_PRIZES))} shows the prizes its "
                                          "area's tiers win)")
