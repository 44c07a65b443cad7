"""The `area_match` style's parameters, read from a spec and checked (docs/styles/area_match.md,
section 1), and the manifest's `play` entry that audit's engine evaluates from.

Everything is the spec's: the symbols ([[symbols]], all of group "play"; code = 1-based position),
the spots of an area ([play] spots_per_area) and [layout]: `wild`, `bonus_key`, `match_pays`,
`bonus_games`, `amount_multipliers` and `max_decompositions`. A value the style cannot lay out is
refused with one line naming the field (SpecError), so a spec that passes `poolgen check` generates.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeGuard

from poolgen.errors import SpecError
from poolgen.game.play import TicketTables
from poolgen.limits import MAX_MONEY_CENTS, bounded_decimal
from poolgen.money import fmt_cents

__all__ = ["LAYOUT_FIELDS", "BonusGame", "Params", "document", "read"]

STYLE = "area_match"
LAYOUT_FIELDS = ("wild", "bonus_key", "match_pays", "bonus_games", "amount_multipliers", "max_decompositions")
GAME_FIELDS = ("name", "symbol", "chances", "grid")
MAX_TUPLES = 2_000_000  # symbols ** spots: the ordered tuples the drawing tabulates
MAX_GAMES = 8
MAX_CHANCES = 8  # a chances game's scoring mask fits the uint8 bonus_result column
MAX_SECTIONS = 255
MAX_PRIZES = 255  # a_bonus_prizes is uint8


@dataclass(frozen=True)
class BonusGame:
    """One bonus game: its symbol's code and what it can give (chances, or a grid's sections)."""

    symbol: int
    chances: int  # 0 for a grid game
    grid: tuple[int, ...]  # prizes per section; () for a chances game

    @property
    def prizes(self) -> tuple[int, ...]:
        """The numbers of prizes the game can win, ascending."""
        return tuple(range(1, self.chances + 1)) if self.chances else tuple(sorted(set(self.grid)))


@dataclass(frozen=True)
class Params:
    """The style's parameters of one spec, validated (`read`)."""

    n_symbols: int  # codes 1 .. n_symbols
    spots: int  # spots per area
    wild: int  # code of the wild symbol
    key: int  # code of the bonus key symbol
    games: tuple[BonusGame, ...]  # bonus game codes 1 .. len(games) in the a{i}_bonus column
    matchable: tuple[int, ...]  # codes matched by the wild: every other symbol
    match: tuple[tuple[int, int], ...]  # (count, times the amount) of each winning match count
    amounts_half: tuple[int, ...]  # amount multipliers x 2, ascending
    cap: int  # max decompositions kept per (tier, play areas)
    codes: tuple[str, ...] = ()  # the symbols' spec codes: code c is codes[c - 1]
    names: tuple[str, ...] = ()  # the bonus games' names, in `games` order

    @property
    def bonus_symbols(self) -> tuple[int, ...]:
        return (self.key, *(g.symbol for g in self.games))

    @property
    def first_bonus(self) -> int:
        """The area class of the first bonus game."""
        return 1 + len(self.match)

    @property
    def n_classes(self) -> int:
        return 1 + len(self.match) + len(self.games)

    @property
    def max_prizes(self) -> int:
        return max(max(g.prizes) for g in self.games)

    @property
    def times(self) -> tuple[int, ...]:
        """Every N an area value is N x an amount by: the match times and the bonus games' prizes."""
        return tuple(sorted({t for _, t in self.match} | {n for g in self.games for n in g.prizes}))


def _fail(tables: TicketTables, field: str, why: str) -> SpecError:
    return tables.fail(field, why)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _code(tables: TicketTables, codes: dict[str, int], field: str) -> int:
    return _symbol_code(tables, codes, field, tables.layout.get(field.removeprefix("layout.")))


def _symbol_code(tables: TicketTables, codes: dict[str, int], field: str, value: object) -> int:
    if value is None:
        why = {"layout.wild": " (an area_match game has a wild)",
               "layout.bonus_key": f" (an area_match game has a bonus key and 1 to {MAX_GAMES} bonus games)"}
        what = "missing field: the spec code of one of the [[symbols]]"
        raise _fail(tables, field, what + why.get(field, ""))
    if not isinstance(value, str) or value not in codes:
        raise _fail(tables, field, f"must be the code of one of the [[symbols]], not {value!r}")
    return codes[value]


def _symbols(tables: TicketTables) -> dict[str, int]:
    for j, s in enumerate(tables.symbols):
        if s.group != "play":
            raise _fail(tables, f"symbols[{j}].group",
                        f"the {STYLE} style has play symbols only, not {s.group!r}")
    if not 1 <= len(tables.symbols) <= 255:
        raise _fail(tables, "symbols", f"{len(tables.symbols)} symbols; the style has 1 to 255 (uint8 codes)")
    return {s.code: j + 1 for j, s in enumerate(tables.symbols)}


def _spots(tables: TicketTables, n_symbols: int) -> int:
    spots = tables.play.get("spots_per_area")
    if not _whole(spots) or not 4 <= spots <= 6:
        raise _fail(tables, "play.spots_per_area",
                    f"must be 4, 5 or 6, not {spots!r} (with fewer a losing area cannot show the wild with "
                    f"another symbol, and no match leaves a spot for the first symbol shown)")
    if n_symbols**spots > MAX_TUPLES:
        raise _fail(tables, "play.spots_per_area", f"{n_symbols} symbols in {spots} spots make "
                                                 f"{n_symbols**spots:,} tuples; at most {MAX_TUPLES:,}")
    return spots


def _match(tables: TicketTables, spots: int) -> tuple[tuple[int, int], ...]:
    raw = tables.layout.get("match_pays")
    want = [spots - 1, spots]
    if not isinstance(raw, list) or [m.get("count") if isinstance(m, dict) else None for m in raw] != want:
        raise _fail(tables, "layout.match_pays",
                    f"must be [{{count = {want[0]}, times = ...}}, {{count = {want[1]}, times = ...}}] "
                    f"(spots_per_area - 1 and spots_per_area like symbols win), not {raw!r}")
    out = []
    for j, m in enumerate(raw):
        if set(m) != {"count", "times"}:
            raise _fail(tables, f"layout.match_pays[{j}]", f"has exactly count and times, not {sorted(m)}")
        t = m["times"]
        if not _whole(t) or not 1 <= t <= MAX_PRIZES:
            raise _fail(tables, f"layout.match_pays[{j}].times",
                        f"must be a whole number 1..{MAX_PRIZES}, not {t!r}")
        out.append((m["count"], t))
    return tuple(out)


def _game(tables: TicketTables, codes: dict[str, int], raw: object, j: int) -> BonusGame:
    where = f"layout.bonus_games[{j}]"
    if not isinstance(raw, dict):
        raise _fail(tables, where, "must be a table")
    for key in raw:
        if key not in GAME_FIELDS:
            raise _fail(tables, f"{where}.{key}", "unknown field")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise _fail(tables, f"{where}.name", f"must be the game's name (1 to 40 characters), not {name!r}")
    symbol = _symbol_code(tables, codes, f"{where}.symbol", raw.get("symbol"))
    if ("chances" in raw) == ("grid" in raw):
        raise _fail(tables, where, "must have either chances (a game of chances) or grid (sections)")
    if "chances" in raw:
        c = raw["chances"]
        if not _whole(c) or not 1 <= c <= MAX_CHANCES:
            raise _fail(tables, f"{where}.chances", f"must be a whole number 1..{MAX_CHANCES}, not {c!r}")
        return BonusGame(symbol, c, ())
    grid = raw["grid"]
    if (not isinstance(grid, list) or not 1 <= len(grid) <= MAX_SECTIONS
            or any(not _whole(g) or not 1 <= g <= MAX_PRIZES for g in grid)):
        raise _fail(tables, f"{where}.grid", f"must list 1 to {MAX_SECTIONS} sections' numbers of prizes, "
                                           f"each a whole number 1..{MAX_PRIZES}, not {grid!r}")
    return BonusGame(symbol, 0, tuple(grid))


def _games(tables: TicketTables, codes: dict[str, int], taken: set[int]) -> tuple[BonusGame, ...]:
    raw = tables.layout.get("bonus_games")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_GAMES:
        raise _fail(tables, "layout.bonus_games", f"must be 1 to {MAX_GAMES} [[layout.bonus_games]] tables")
    games: list[BonusGame] = []
    for j, g in enumerate(raw):
        game = _game(tables, codes, g, j)
        if game.symbol in taken:
            raise _fail(tables, f"layout.bonus_games[{j}].symbol",
                        f"{g['symbol']!r} is already the wild, the bonus key or another game's symbol")
        taken.add(game.symbol)
        if games and game.prizes != games[0].prizes:
            raise _fail(tables, f"layout.bonus_games[{j}]",
                        f"wins {', '.join(map(str, game.prizes))} prizes, bonus_games[0] "
                        f"{', '.join(map(str, games[0].prizes))}: every bonus game must win the same "
                        f"numbers of prizes (a bonus area may show any game's symbol first)")
        games.append(game)
    return tuple(games)


def _amounts(tables: TicketTables) -> tuple[int, ...]:
    raw = tables.layout.get("amount_multipliers")
    if not isinstance(raw, list) or not raw:
        raise _fail(tables, "layout.amount_multipliers",
                    "missing: a list of decimal strings such as \"0.5\"")
    halves = []
    for j, text in enumerate(raw):
        where = f"layout.amount_multipliers[{j}]"
        if not isinstance(text, str):
            raise _fail(tables, where, f"must be a decimal string, not {text!r}")
        try:
            x = bounded_decimal(text)
        except ValueError as exc:
            raise _fail(tables, where, str(exc)) from None
        if not x.is_finite() or x <= 0 or (2 * x) != (2 * x).to_integral_value():
            raise _fail(tables, where, f"{text!r} must be a positive multiple of 0.5")
        top = max(tables.denomination_cents)  # a losing area may show any amount
        if x * top > MAX_MONEY_CENTS:
            raise _fail(tables, where, f"{text} x {fmt_cents(top, tables.currency)} is more than "
                                       f"{fmt_cents(MAX_MONEY_CENTS, tables.currency)}")
        for d in tables.denomination_cents:  # an amount shown is x x the denomination, in cents
            if x * d != (x * d).to_integral_value():
                raise _fail(tables, where, f"{text} x {fmt_cents(d, tables.currency)} is not whole cents (an "
                                           "amount an area may show)")
        halves.append(int(2 * x))
    if len(set(halves)) != len(halves):
        raise _fail(tables, "layout.amount_multipliers", "a multiplier is listed twice")
    return tuple(sorted(halves))


def read(tables: TicketTables) -> Params:
    """Validate the style's parameters of `tables`; raise SpecError naming the field."""
    for field in tables.layout:
        if field not in LAYOUT_FIELDS:
            raise _fail(tables, f"layout.{field}",
                        f"unknown field (the {STYLE} style reads {', '.join(LAYOUT_FIELDS)})")
    for field in tables.play:
        if field != "spots_per_area":
            raise _fail(tables, f"play.{field}",
                        f"not a field of the {STYLE} style (it reads spots_per_area)")
    codes = _symbols(tables)
    spots = _spots(tables, len(codes))
    wild = _code(tables, codes, "layout.wild")
    key = _code(tables, codes, "layout.bonus_key")
    if key == wild:
        raise _fail(tables, "layout.bonus_key", "must not be the wild symbol")
    games = _games(tables, codes, {wild, key})
    bonus = {key, *(g.symbol for g in games)}
    matchable = tuple(c for c in range(1, len(codes) + 1) if c != wild and c not in bonus)
    if len(matchable) < spots:
        raise _fail(tables, "symbols", f"{len(matchable)} symbols to match besides the wild and the bonus "
                                     f"symbols; at least spots_per_area ({spots}) so that an area can lose")
    match = _match(tables, spots)
    (_, low), (_, full) = match
    if full != low and full not in games[0].prizes:
        raise _fail(tables, "layout.match_pays[1].times",
                    f"{full}: S like symbols (which hold no bonus symbol) must pay as often as S - 1 "
                    f"({low}) or a number of prizes the bonus games win "
                    f"({', '.join(map(str, games[0].prizes))}): an area 0 whose first spot is a bonus symbol "
                    f"can win that value no other way")
    cap = tables.layout.get("max_decompositions")
    if not _whole(cap) or not 1 <= cap <= 10_000_000:
        raise _fail(tables, "layout.max_decompositions",
                    f"must be a whole number 1..10,000,000, not {cap!r}")
    return Params(len(codes), spots, wild, key, games, matchable, match, _amounts(tables), cap,
                  tuple(s.code for s in tables.symbols),
                  tuple(g["name"] for g in tables.layout["bonus_games"]))


def document(params: Params) -> dict[str, Any]:
    """The manifest's `play` entry: every parameter audit's engine reads (contract section 1)."""
    games: list[dict[str, Any]] = []
    for name, g in zip(params.names, params.games, strict=True):
        entry: dict[str, Any] = {"code": len(games) + 1, "name": name, "symbol": g.symbol}
        if g.chances:
            entry["chances"] = g.chances
        else:
            entry["grid"] = list(g.grid)
        games.append(entry)
    return {
        "style": STYLE,
        "spots": params.spots,
        "symbols": list(params.codes),
        "wild": params.wild,
        "bonus_key": params.key,
        "match_pays": [{"count": c, "times": t} for c, t in params.match],
        "bonus_games": games,
        "amount_multipliers": [_text(Decimal(h) / 2) for h in params.amounts_half],
    }


def _text(x: Decimal) -> str:
    """0.5 -> "0.5", 2 -> "2", 1004 -> "1004"."""
    return f"{x.normalize():f}"
