"""A game's play evaluated from the manifest's `play` entry alone (docs/styles/play.md).

`evaluate_play(table, pool, play)` evaluates a pool by whichever kind of play its entry states: a
ticket-wide style's engine when the entry names a `style` (audit/styles/__init__.py
`einstant_engine`), else the play of areas. A run of a game of areas carries the manifest entry
`play`: its areas, each of a style, its most wins, and every tier's wins. `evaluate(table, pool,
play)` evaluates each area with its style's engine (`area_engine`), sums the wins, and marks illegal
every row with too many wins or whose wins are not exactly its tier's, or whose win-all symbol shows
other prizes than its tier's win pins (`shows`, docs/styles/key_number_match.md section 5). A
ticket-wide multiplier (a win `how = "ticket"`, by k) scales the ticket's other wins: the row pays k x
their sum.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import polars as pl

from audit.styles import area_engine, einstant_engine
from audit.styles.interface import HOWS, Evaluation, Reasons
from audit.styles.ticket_multiplier import cover

__all__ = ["evaluate", "tier_keys", "tier_pins"]

T = TypeVar("T")
TICKET = HOWS.index("ticket")  # a ticket-wide multiplier (docs/styles/play.md, rule 2)
MATCH = HOWS.index("match")  # a legend's win, the only kind a `multiplies` grid covers (ticket_multiplier 9)
ALL = HOWS.index("all")  # a win-all symbol's win: told apart by the sum it pays (key_number_match)
Pins = dict[int, list[tuple[int, list[int]]]]  # tier index: its pinned win-all wins (area, counts)
Shown = dict[int, tuple[list[np.ndarray], np.ndarray]]  # win-all area: (each spot's prize codes, wins all)


def _need(doc: object, key: str, kind: type[T], where: str) -> T:
    if not isinstance(doc, dict) or key not in doc:
        raise ValueError(f"manifest play entry: {where}.{key} is missing")
    value = doc[key]
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise ValueError(f"manifest play entry: {where}.{key} is not a {kind.__name__}")
    return value


def _listed_prizes(area: dict[str, Any], area_id: str) -> None:
    """Every prize an area lists is `{code, cents}` (each style's section 3), code a string and cents a
    whole number 0..2^40 - 1 (play.md rule 1), whether or not a row shows it."""
    prizes = area.get("prizes")
    if prizes is None:
        return
    if not (isinstance(prizes, list) and prizes and all(
            isinstance(p, dict) and isinstance(p.get("code"), str) and type(p.get("cents")) is int
            and 0 <= p["cents"] < 1 << 40 for p in prizes)):
        raise ValueError(f"manifest play entry: area {area_id!r}: prizes is not a non-empty list of "
                         "{code, cents} (cents 0..2^40 - 1)")


SIZES = ("spots", "winning", "yours", "games", "hands", "hand_cards", "pairs", "rows", "cols", "cards",
         "calls", "letters")  # an area's counts of layout columns (of spots, games, ...)
MAX_TICKET_SPOTS = 1024  # a printed ticket's layout columns, all areas (docs/styles/play.md rule 1)


def _sizes(area: dict[str, Any], area_id: str) -> None:
    """No count of an area's columns is above the 1,024 a ticket holds: refused before any engine
    lists that many column names."""
    for key in SIZES:
        value = area.get(key)
        if type(value) is int and value > MAX_TICKET_SPOTS:
            raise ValueError(f"manifest play entry: area {area_id!r}: {key} {value} is more than the "
                             f"{MAX_TICKET_SPOTS:,} spots a ticket holds")


def _listed_codes(area: dict[str, Any], area_id: str) -> None:
    """Every code an area lists (`numbers`, `pictures`, `dealer_totals`; a multiplier's or special's
    `code`) is a string, as the spec's symbol codes are (play.md rule 1), whether or not a row shows it."""
    for key in ("numbers", "pictures", "dealer_totals", "multipliers", "specials"):
        listed = area.get(key)
        entries = key in ("multipliers", "specials")  # lists of {code, ...}
        if isinstance(listed, list) and not all(
                isinstance(c.get("code") if entries and isinstance(c, dict) else c, str) for c in listed):
            raise ValueError(f"manifest play entry: area {area_id!r}: {key} lists a code that is not a "
                             "string")


def _key(area: int, how: npt.ArrayLike, by: npt.ArrayLike, prize: npt.ArrayLike) -> np.ndarray:
    """One int64 per win: (area, how, by, prize symbol) packed; each is bounded by the checks below."""
    packed = ((np.int64(area) * 8 + np.asarray(how)) * 4096 + np.asarray(by)) * 256 + np.asarray(prize)
    return np.asarray(packed)


def _all_key(area: int, cents: npt.ArrayLike) -> np.ndarray:
    """A win-all win's key: (area, the sum it pays), above every key of `_key` (area < 2^20,
    cents < 2^40: evaluate and tier_keys refuse more)."""
    return np.asarray((np.int64(1) << 61) + np.int64(area) * (np.int64(1) << 40) + np.asarray(cents))


def evaluate_play(table: pl.DataFrame, pool: dict[str, Any], play: dict[str, Any]) -> Evaluation:
    """What a pool's layouts pay by its `play` entry: a ticket-wide style's engine if the entry names
    a `style`, else the engines of its areas. ValueError: no engine for it, or an entry they cannot
    read."""
    if "style" in play:
        return einstant_engine(play["style"]).evaluate(table, pool, play)
    return evaluate(table, pool, play)


ROWS = 1 << 16  # rows evaluated at once: an area's slots are five arrays a spot, ~35 bytes a row each


def evaluate(table: pl.DataFrame, pool: dict[str, Any], play: dict[str, Any]) -> Evaluation:
    """The play of areas, evaluated `ROWS` rows at a time (every rule is a row's own: the verdict is
    the same as the whole table's at once, and a million rows of 15 spots need ~35 MB of slots, not
    ~550 MB: issue 28)."""
    if table.height <= ROWS:
        return _evaluate(table, pool, play)
    parts = [(first, _evaluate(table.slice(first, ROWS), pool, play))
             for first in range(0, table.height, ROWS)]
    return Evaluation(np.concatenate([e.prize_cents for _, e in parts]),
                      np.concatenate([e.wins for _, e in parts]),
                      [(first + row, why) for first, e in parts for row, why in e.illegal])


def _evaluate(table: pl.DataFrame, pool: dict[str, Any], play: dict[str, Any]) -> Evaluation:
    n = table.height
    areas = _need(play, "areas", list, "play")
    max_wins = _need(play, "max_wins", int, "play")
    reasons = Reasons()
    slots: list[np.ndarray] = []
    prize = np.zeros(n, dtype=np.int64)  # what the multiplier scales (docs/styles/ticket_multiplier.md 9)
    plain = np.zeros(n, dtype=np.int64)  # what it does not (a `multiplies` naming other areas)
    covered = np.zeros(n, dtype=np.int64)  # the row's wins it scales
    tickets: list[int] = []  # the places in `slots` of the multiplier's win
    names: dict[str, int] = {}
    times = np.ones(n, dtype=np.int64)  # a ticket-wide multiplier's k, 1 where the row shows none
    multiplied = np.zeros(n, dtype=bool)
    shown: Shown = {}
    if sum(isinstance(a, dict) and a.get("style") == "ticket_multiplier" for a in areas) > 1:
        raise ValueError("manifest play entry: more than one ticket_multiplier area")
    if len(areas) >= 1 << 20:
        raise ValueError("manifest play entry: more than 2^20 areas")
    scope = cover(areas)
    for i, area in enumerate(areas):
        area_id = _need(area, "id", str, f"areas[{i}]")
        source = area.get("winning_from")
        if source is not None and (source not in names or areas[names[source]].get("numbers")
                                   != area.get("numbers")):
            raise ValueError(f"manifest play entry: area {area_id!r}: winning_from {source!r} is not an "
                             "earlier area of the same numbers")
        names[area_id] = i
        engine = area_engine(_need(area, "style", str, f"areas[{i}]"))
        _listed_prizes(area, area_id)
        _listed_codes(area, area_id)
        _sizes(area, area_id)
        area_slots = engine.evaluate(table, area, reasons)
        if any((s.how == ALL).any() for s in area_slots):  # a win-all area: the prize codes of its spots
            shown[i] = ([s.prize for s in area_slots],
                        np.logical_or.reduce([s.won & (s.how == ALL) for s in area_slots]))
        for s in area_slots:
            if (s.by < 1).any() or (s.by >= 4096).any() or (s.cents < 0).any() or (s.cents >= 1 << 40).any():
                raise ValueError(f"manifest play entry: area {area_id!r}: a multiplier or amount "
                                 "out of range")
            ticket = s.won & (s.how == TICKET)
            times = np.where(ticket, s.by, times)
            multiplied |= ticket
            codes = None if scope is None else scope.get(i, np.zeros(0, np.int64))
            # a puzzle's codes cover its legend's wins, never a bonus word's of the same code
            mine = s.won & ~ticket & (True if codes is None else np.isin(s.prize, codes) & (s.how == MATCH))
            prize += np.where(mine, s.by * s.cents, 0)
            plain += np.where(s.won & ~ticket & ~mine, s.by * s.cents, 0)
            covered += mine
            if (s.how == TICKET).any():
                tickets.append(len(slots))
            key = np.where(s.how == ALL, _all_key(i, s.cents), _key(i, s.how, s.by, np.clip(s.prize, 0, 255)))
            slots.append(np.where(s.won, key, -1))
    if (prize > ((1 << 62) - 1) // times).any():  # prize x times reaches 2^62 (docs/styles/play.md)
        raise ValueError("manifest play entry: a multiplied prize out of range")
    prize = prize * times + plain
    lone = multiplied & (covered == 0)  # a multiplier with nothing to multiply
    for j in tickets if _on_losers(areas) else ():  # ticket_multiplier.md 5 and 9: it is no win, pays 0
        slots[j] = np.where(lone, -1, slots[j])
    keys = np.sort(np.stack(slots, axis=1), axis=1) if slots else np.full((n, 0), -1)
    wins = (keys >= 0).sum(axis=1) - (multiplied & ~lone if _on_losers(areas) else multiplied)
    too_many = wins > max_wins
    reasons.add(too_many, lambda r: f"{int(wins[r])} wins, at most {max_wins}")
    if not _on_losers(areas):
        reasons.add(lone, lambda r: f"a ticket-wide multiplier x{int(times[r])} on a ticket with no other "
                                    "win" if scope is None else
                    f"a multiplier x{int(times[r])} on a ticket with no win in what it multiplies")

    want, tier_ids = tier_keys(play, names, areas, keys.shape[1])
    pins = tier_pins(play, names, areas)
    tier_column = table["tier"].cast(pl.String) if "tier" in table.columns else pl.Series([None] * n,
                                                                                      dtype=pl.String)
    index = tier_column.replace_strict(tier_ids, default=-1, return_dtype=pl.Int64).fill_null(-1).to_numpy()
    tier = tier_column.to_numpy()
    unknown = index < 0
    reasons.add(unknown, lambda r: f"tier {tier[r]!r} is not in the manifest's play entry")
    expected = want[np.maximum(index, 0)]
    other = ~unknown & (expected != keys).any(axis=1) if keys.shape[1] else np.zeros(n, dtype=bool)
    reasons.add(other, lambda r: f"its wins are not its tier {tier[r]!r}'s ({int(wins[r])} win(s) "
                                 f"paying {int(prize[r])} cents)")
    _pinned(index, pins, shown, areas, reasons)
    return Evaluation(prize, wins, reasons.illegal())


def _on_losers(areas: list[Any]) -> bool:
    """Whether the play's ticket_multiplier area (at most one) says `multipliers_on_losers`: true."""
    return any(isinstance(a, dict) and a.get("style") == "ticket_multiplier"
               and a.get("multipliers_on_losers") is True for a in areas)


def _pinned(index: np.ndarray, pins: Pins,
            shown: Shown, areas: list[Any], reasons: Reasons) -> None:
    """A row of a tier whose win-all win pins its prizes (`shows`) and that shows a win-all symbol in
    that area shows exactly those prizes, each as many times (key_number_match, section 5). Only those
    rows are counted: counting every row of the pool took a third more memory and half more time than
    the rest of the evaluation (a Red Hot pool of 1,010,000)."""
    for t, pinned in pins.items():
        for a, counts in pinned:
            if a not in shown:  # no row of the pool shows a win-all symbol in the area
                continue
            prizes, wins_all = shown[a]
            rows = np.flatnonzero((index == t) & wins_all)
            codes = np.stack([p[rows] for p in prizes], axis=1)
            got = np.stack([(codes == k).sum(axis=1) for k in range(len(counts))], axis=1)
            bad = np.zeros(index.size, dtype=bool)
            bad[rows[(got != np.array(counts)).any(axis=1)]] = True
            codes_of = [p["code"] for p in areas[a]["prizes"]]
            reasons.add(bad, lambda r, a=a, counts=counts, got=got, rows=rows, codes_of=codes_of: (
                f"{areas[a]['id']}: its win-all symbol shows "
                f"{_said(codes_of, got[np.searchsorted(rows, r)])}, not the prizes its tier pins "
                f"({_said(codes_of, counts)})"))


def _said(codes: list[str], counts: Any) -> str:
    """Prizes shown as a reason words them: `10 x '5', 5 x '10'` (the area's order, counts of 0 left out)."""
    return ", ".join(f"{int(k)} x {code!r}" for code, k in zip(codes, counts, strict=True) if k)


def tier_keys(play: dict[str, Any], names: dict[str, int], areas: list[Any],
               width: int) -> tuple[np.ndarray, dict[str, int]]:
    """Every tier's wins as sorted keys padded with -1 to `width` (the places a win can come from)."""
    tiers = _need(play, "tiers", list, "play")
    rows, ids = [], {}
    for j, t in enumerate(tiers):
        where = f"tiers[{j}]"
        ids[_need(t, "id", str, where)] = j
        keys = []
        for k, w in enumerate(_need(t, "wins", list, where)):
            ww = f"{where}.wins[{k}]"
            area = names.get(_need(w, "area", str, ww))
            how = _need(w, "how", str, ww)
            if area is None or how not in HOWS:
                raise ValueError(f"manifest play entry: {ww}: unknown area or how")
            by, code = _need(w, "by", int, ww), _need(w, "prize", str, ww)
            cents = _need(w, "prize_cents", int, ww)
            if how == "all":
                keys.append(_win_all_key(areas[area], area, w, ww))
                continue
            listing = areas[area].get("multipliers" if how == "ticket" else "prizes")  # ticket: its k's
            if not isinstance(listing, list) or not all(isinstance(p, dict) for p in listing):
                raise ValueError(f"manifest play entry: {ww}: its area lists no such prizes")
            prizes = [p.get("code") for p in listing]
            shown = 0 if how == "ticket" or code not in prizes else listing[prizes.index(code)].get("cents")
            if code not in prizes or shown != cents:
                raise ValueError(f"manifest play entry: {ww}: prize {code!r} of {cents} cents is not "
                                 "one of its area's prizes")
            if not 1 <= by < 4096:
                raise ValueError(f"manifest play entry: {ww}: by out of range")
            packed = _key(area, np.int64(HOWS.index(how)), np.int64(by), np.int64(prizes.index(code)))
            keys.append(int(packed))
        if len(keys) > width:
            raise ValueError(f"manifest play entry: {where} has more wins than the areas have places")
        rows.append(sorted([-1] * (width - len(keys)) + keys))
    return np.array(rows, dtype=np.int64).reshape(len(rows), width), ids


def tier_pins(play: dict[str, Any], names: dict[str, int], areas: list[Any]) -> Pins:
    """By tier index, its win-all wins that pin their prizes (`shows`): (area, count per prize of the
    area, in its order), in the order the tier lists them (the entry as `tier_keys` has read it)."""
    pins: Pins = {}
    for j, t in enumerate(play["tiers"]):
        for k, w in enumerate(t["wins"]):
            if "shows" not in w:
                continue
            where = f"tiers[{j}].wins[{k}]"
            if w["how"] != "all":
                raise ValueError(f"manifest play entry: {where}: shows on a win that is not a win-all win")
            area = names[w["area"]]
            pins.setdefault(j, []).append((area, _shows(areas[area], w, where)))
    return pins


def _win_all_key(area: Any, index: int, win: dict[str, Any], where: str) -> int:
    """A tier's win-all win: by 1, `prize` its area's win-all symbol, `prize_cents` the sum it pays."""
    by, code = _need(win, "by", int, where), _need(win, "prize", str, where)
    cents = _need(win, "prize_cents", int, where)
    specials = area.get("specials") if isinstance(area, dict) else None
    if not isinstance(specials, list) or not any(isinstance(s, dict) and s.get("how") == "all"
                                                 and s.get("code") == code for s in specials):
        raise ValueError(f"manifest play entry: {where}: {code!r} is not a win-all symbol of its area")
    if by != 1 or not 0 < cents < 1 << 40:
        raise ValueError(f"manifest play entry: {where}: a win-all win is by 1, of 1 .. 2^40 - 1 cents")
    return int(_all_key(index, cents))


def _shows(area: dict[str, Any], win: dict[str, Any], where: str) -> list[int]:
    """A win-all win's pinned prizes (`shows`, key_number_match section 3): a count >= 1 for some of
    its area's prize codes, filling the area's `yours` spots and adding up to the win's `prize_cents`;
    as a count per prize of the area, in its order."""
    shows, prizes = win["shows"], area.get("prizes")
    if not isinstance(prizes, list) or not all(isinstance(p, dict) for p in prizes):
        raise ValueError(f"manifest play entry: {where}: its area lists no prizes")
    codes = [p.get("code") for p in prizes]
    if not isinstance(shows, dict) or not shows or any(c not in codes or isinstance(k, bool)
                                                       or not isinstance(k, int) or k < 1
                                                       for c, k in shows.items()):
        raise ValueError(f"manifest play entry: {where}: shows is not a count >= 1 for some of its area's "
                         "prize codes")
    counts = [shows.get(c, 0) for c in codes]
    cents = sum(k * int(p["cents"]) for k, p in zip(counts, prizes, strict=True))
    if sum(counts) != area.get("yours") or cents != win["prize_cents"]:
        raise ValueError(f"manifest play entry: {where}: shows {sum(counts)} prizes of {cents} cents, not "
                         f"the area's {area.get('yours')} of the win's {win['prize_cents']}")
    return counts
