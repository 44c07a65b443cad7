"""The two kinds of `Play` (poolgen/game/model.py) and the interfaces of the styles they delegate to.

- `AreaPlay`: a ticket of play areas, each of an area style (`AreaStyle`); a tier is a list of
  wins, each in one area (docs/styles/play.md). Its manifest entry lists the areas and every tier's
  wins.
- `TicketPlay`: one ticket-wide style (`TicketStyle`) that decomposes each prize itself, with
  every parameter its audit engine reads in its manifest entry (docs/styles/<style>.md).

Styles are implemented by modules (poolgen/styles/), registered by name in
`poolgen.styles.AREA_STYLES` and `poolgen.styles.TICKET_STYLES`; mypy checks each module against
its protocol here. A style reads its parameters through the reading interfaces below, which the
spec loader (poolgen/loader/) implements, so a style never sees a spec file's format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, overload

import numpy as np

from poolgen.errors import SpecError
from poolgen.game.model import CheckResult, Game, Pool, Symbol
from poolgen.money import USD, Currency

if TYPE_CHECKING:
    from poolgen.rng.drbg import Stream

__all__ = ["Area", "AreaPlay", "AreaReading", "AreaStyle", "Cell", "FieldReader", "Groups", "Section",
           "ShownPrizes", "TICKET", "TicketPlay", "TicketStyle", "TicketTables", "Win", "WinError",
           "pool_prize_mix", "prize_entry"]

ParamsT = TypeVar("ParamsT")  # a style's own parameters (the dataclass its `read_area` / `read` returns)
_T = TypeVar("_T")
_ParamsIn = TypeVar("_ParamsIn", contravariant=True)  # a style's parameters, only taken (ShownPrizes)


# ---- a ticket of play areas -----------------------------------------------------------------------

@dataclass(frozen=True)
class Win:
    """One win of a tier: in `area`, prize symbol `prize` won `how`, paying `by` x its value. `shows`:
    the prizes the area must show for it, as (prize code, count) in the area's prize order, when the
    spec pins them (a win-all win, docs/styles/key_number_match.md 7.1); () when it does not."""

    area: str
    how: str
    by: int
    prize: Symbol
    shows: tuple[tuple[str, int], ...] = ()
    over: tuple[tuple[str, frozenset[str] | None], ...] = ()  # a multiplier's: what it covers (multiplied.py)

    @property
    def cents(self) -> int:
        return self.by * (self.prize.cents or 0)

    def key(self) -> tuple[str, str, int, str, int]:
        """What tells two wins apart: a win-all symbol's wins differ by the sum they pay."""
        return (self.area, self.how, self.by, self.prize.code, self.cents)


TICKET = "ticket"  # how a ticket-wide multiplier "wins" (docs/styles/play.md, rule 2; ticket_multiplier)


def prize_entry(symbols: Sequence[Symbol]) -> list[dict[str, Any]]:
    """A list of prize symbols as an area's manifest entry writes it (docs/styles/play.md)."""
    return [{"code": s.code, "cents": s.cents} for s in symbols]


def unpaid_legend_line(legend: Sequence[tuple[Any, Symbol]], wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first line of a legend (count, prize) no tier's win lists, and why: a style's `unpaid_field`
    for its legend (poolgen/loader/printed.py refuses it: every ticket would print a legend prize that
    never wins; the style's contract, section 2)."""
    paid = {w.prize.code for w in wins}
    for i, (_, prize) in enumerate(legend):
        if prize.code not in paid:
            return f"legend[{i}].prize", f"no tier wins {prize.code!r} (every ticket would print it in the " \
                                           "legend, and it could never win)"
    return None


def pool_prize_mix(prizes: Sequence[Symbol], groups: Groups, mix: Sequence[int]) -> np.ndarray:
    """The cumulative weight of each prize among the pool's wins in an area (`mix`: each tier's count
    in the pool, aligned with `groups`), uniform when the area has no win: how the styles whose games
    each show a PRIZE draw the PRIZE of a game that does not win (add_up, prize_box,
    yours_beats_theirs, cards; their contracts, section 7)."""
    index = {s.code: i for i, s in enumerate(prizes)}
    weight = np.zeros(len(prizes), dtype=np.int64)
    for count, (_, wins) in zip(mix, groups, strict=True):
        for w in wins:
            weight[index[w.prize.code]] += count
    return np.cumsum(weight if weight.sum() else np.ones_like(weight))


class WinError(ValueError):
    """Why a win cannot be won so, and which of its fields says so (`prize`, `how` or `by`): the
    loader names `tiers[i].wins[j].FIELD`. A plain ValueError is a fault of the win as a whole."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(why)
        self.field = field


def shown_prize_win(prizes: Sequence[Symbol], how: str, by: int | None, code: str, *, expected: str,
                    said: str, no_by: str) -> tuple[Symbol, int]:
    """A win that pays the prize symbol `code` as shown, once: the read_win of every style whose
    game (or pair, or spot) wins the PRIZE it shows. `expected` is the one `how` it takes, `said`
    the message for another, `no_by` the message when a `by` is given."""
    prize = next((s for s in prizes if s.code == code), None)
    if prize is None:
        raise WinError("prize", f"prize {code!r} is not one of its prize symbols")
    if how != expected:
        raise WinError("how", f"how = {how!r}: {said}")
    if by is not None:
        raise WinError("by", no_by)
    return prize, 1


Groups = list[tuple[np.ndarray, tuple[Win, ...]]]  # per tier of a pool: (its rows, its wins in the area)
# One spot of an area's face: (column, symbol text, caption, prize text, prize caption); the prize's
# text and caption are None where the spot shows no prize below it.
Cell = tuple[str, str, str, str | None, str | None]
Section = tuple[str, list[Cell]]  # (title, its cells)


class FieldReader(Protocol):
    """Field access of the spec loader (poolgen/loader/reader.py): every problem is one SpecError naming
    the file and the field. `get` returns the value as `kind` (None only when absent and not `required`)."""

    currency: Currency  # the game's (`game.currency`): every amount of the spec is written in it

    def fail(self, where: str, why: str) -> SpecError: ...

    @overload
    def get(self, table: Mapping[str, Any], key: str, where: str, kind: type[_T],
            required: Literal[True] = True) -> _T: ...

    @overload
    def get(self, table: Mapping[str, Any], key: str, where: str, kind: type[_T],
            required: bool) -> _T | None: ...

    @overload
    def get(self, table: Mapping[str, Any], key: str, where: str, kind: tuple[type, ...],
            required: bool = True) -> Any: ...


class AreaReading(Protocol):
    """What an area style reads one `[[areas]]` table with (poolgen/loader/areas.py `AreaContext`)."""

    @property
    def r(self) -> FieldReader: ...

    @property
    def areas(self) -> Sequence[Area]: ...  # the areas read so far (an area may refer to an earlier one)

    def group(self, table: Mapping[str, Any], key: str, where: str, role: str,
              required: bool = True) -> tuple[Symbol, ...]:
        """The symbols of the group an area field names, taking `role` (() if absent and not required)."""
        ...

    def whole(self, table: Mapping[str, Any], key: str, where: str, low: int, required: bool = True,
              default: int = 0, high: int | None = None) -> int: ...


class AreaStyle(Protocol[ParamsT]):
    """An area style: a module poolgen/styles/<style>.py (or <style>/style.py) following
    docs/styles/<style>.md, of parameters `ParamsT` (what its `read_area` returns and every other
    function takes)."""

    FIELDS: frozenset[str]  # the area fields it reads (besides id, style, labels, per_row)
    SPOTS: tuple[tuple[str, tuple[str, ...]], ...]  # column suffix -> the symbol lists its codes index

    def read_area(self, ctx: AreaReading, table: Mapping[str, Any], where: str) -> ParamsT:
        """Read and check one [[areas]] table: the style's parameters (SpecError)."""
        ...

    def read_win(self, params: ParamsT, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
        """(prize symbol, multiplier) of one win (WinError naming its field, or ValueError: why it
        cannot be won so)."""
        ...

    def check_wins(self, params: ParamsT, wins: tuple[Win, ...]) -> str | None:
        """Why a tier's wins in this area cannot be laid out (None: they can)."""
        ...

    def entry(self, params: ParamsT) -> dict[str, Any]:
        """The area's entry in the manifest's `play`."""
        ...

    def columns(self, area_id: str, params: ParamsT) -> list[str]: ...

    def lay_out(self, area_id: str, params: ParamsT, groups: Groups, n: int, stream: Stream,
                done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
        """The area's columns for `n` rows, all from `stream`; `done`: the columns of the areas laid
        out before it; `mix`: each tier's count in the pool, aligned with `groups`. Any weight a
        layout takes from the pool's wins is computed from `mix`, never from the rows given: the
        neighbour rule lays out runs of a pool again (docs/randomness.md, 5.1), and a run's
        layouts must be drawn as the pool's are."""
        ...

    def layout_note(self, params: ParamsT, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
        """A note for `poolgen check`: what the layout cannot promise for these (tickets, wins)."""
        ...

    def face(self, area_id: str, params: ParamsT, row: Mapping[str, Any]) -> list[Section]:
        """The area's sections as printed: (title, cells (column, text, caption, prize, prize caption))."""
        ...

    def explain(self, area_id: str, params: ParamsT, row: Mapping[str, Any],
                currency: Currency = ...) -> tuple[list[str], set[str]]:
        """What the row wins here, in words (amounts in `currency`, the game's), and the columns that win."""
        ...


class ShownPrizes(Protocol[_ParamsIn]):
    """How an area style whose wins may pin the prizes the area shows (key_number_match: a win-all
    win, docs/styles/key_number_match.md 7.1) reads such a win whole, `by`, `prize` and its `shows`
    table (the pin may decide what `read_win` would search for): (prize symbol, multiplier, (prize
    code, count) in the area's prize order); WinError naming the win's field, or ValueError: why the
    area cannot show them for this win."""

    def __call__(self, params: _ParamsIn, by: int | None, code: str, shows: Mapping[str, Any], /) \
            -> tuple[Symbol, int, tuple[tuple[str, int], ...]]: ...


@dataclass(frozen=True)
class Area:
    id: str
    style: str
    module: AreaStyle[Any] = field(repr=False)
    params: Any = field(repr=False)  # what the style module read (its own dataclass)
    labels: tuple[str, ...] = ()  # the area's sections as printed on the ticket (proofs); () = the style's
    per_row: int | None = None  # the proofs draw at most this many spots a row (None: up to 8, rows even)

    def columns(self) -> list[str]:
        return self.module.columns(self.id, self.params)


@dataclass(frozen=True)
class AreaPlay:
    """A ticket of play areas; `wins` maps every tier id ("lose" included) to its wins."""

    areas: tuple[Area, ...]
    max_wins: int
    wins: Mapping[str, tuple[Win, ...]]

    @property
    def styles(self) -> tuple[str, ...]:
        return tuple(sorted({a.style for a in self.areas}))

    def document(self) -> dict[str, Any]:
        """The manifest's `play` entry (docs/styles/play.md)."""
        return {
            "max_wins": self.max_wins,
            "areas": [a.module.entry(a.params) | {"id": a.id, "style": a.style} for a in self.areas],
            "tiers": [{"id": tid, "wins": [{"area": w.area, "how": w.how, "by": w.by,
                                            "prize": w.prize.code,
                                            "prize_cents": 0 if w.how == TICKET else w.prize.cents}
                                           | ({"shows": dict(w.shows)} if w.shows else {})
                                           for w in wins]}
                      for tid, wins in self.wins.items()],
        }

    def game_entry(self) -> dict[str, str]:
        return {}

    def spots(self) -> int:
        """A ticket's layout columns, all areas together (what building a pool's memory scales with)."""
        return sum(len(a.columns()) for a in self.areas)

    def lay_out(self, game: Game, pool: Pool, tiers: np.ndarray, stream: Stream,
                mix: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        """Every area's columns: each area's style lays out, tier by tier, that area's wins. `mix`:
        each tier's count in the pool (default: in `tiers`, the whole pool's when it is given)."""
        tiers = np.asarray(tiers)
        rows = [np.flatnonzero(tiers == i) for i in range(len(pool.tiers))]
        counts = [r.size for r in rows] if mix is None else list(mix)
        out: dict[str, np.ndarray] = {}
        for area in self.areas:
            groups = [(rows[i], self.area_wins(t.id, area.id)) for i, t in enumerate(pool.tiers)]
            out.update(area.module.lay_out(area.id, area.params, groups, tiers.size, stream, out, counts))
            losers = getattr(area.module, "lay_out_losers", None)  # ticket_multiplier's, its contract's 7
            if losers is not None:  # it picks the rows of the tiers it multiplies nothing of
                every = [(rows[i], self.wins[t.id]) for i, t in enumerate(pool.tiers)]
                out.update(losers(area.id, area.params, every, stream, out))
        return out

    def area_wins(self, tier_id: str, area_id: str) -> tuple[Win, ...]:
        return tuple(w for w in self.wins[tier_id] if w.area == area_id)

    def check(self, game: Game, result: CheckResult) -> None:
        """What a style's layout cannot promise for the pools' counts: one note per area."""
        for area in self.areas:
            for pool in game.pools:
                why = area.module.layout_note(area.params, [(pt.count, self.area_wins(pt.id, area.id))
                                                            for pt in pool.tiers])
                if why:
                    result.notes.append(f"{game.name}: pool {pool.id}: area {area.id!r}: {why}")
                    break


# ---- one ticket-wide style ------------------------------------------------------------------------

@dataclass(frozen=True)
class TicketTables:
    """What a ticket-wide style reads its parameters from: the spec's symbols, the eInstant's play
    areas and denominations, and the style's own tables (`play`, `layout`), as written."""

    file: str  # the spec file's name, for one-line errors
    symbols: tuple[Symbol, ...]
    play_areas: tuple[int, ...]
    denomination_cents: tuple[int, ...]
    play: Mapping[str, Any]
    layout: Mapping[str, Any]
    currency: Currency = USD  # the game's (`game.currency`): the amounts a refusal names

    def fail(self, where: str, why: str) -> SpecError:
        return SpecError(f"{self.file}: {where}: {why}")


class TicketStyle(Protocol[ParamsT]):
    """A ticket-wide style: a module poolgen/styles/<style>.py (or <style>/style.py) following
    docs/styles/<style>.md, of parameters `ParamsT` (what its `read` returns and every other
    function takes)."""

    def read(self, tables: TicketTables) -> ParamsT:
        """Read and check every parameter (SpecError naming the field): the style's parameters."""
        ...

    def document(self, params: ParamsT) -> dict[str, Any]:
        """The manifest's `play` entry: every parameter audit's engine reads ({"style": ..., ...})."""
        ...

    def lay_out(self, params: ParamsT, game: Game, pool: Pool, tiers: np.ndarray,
                stream: Stream) -> dict[str, np.ndarray]: ...

    def check(self, params: ParamsT, game: Game, result: CheckResult) -> None:
        """What `poolgen check` must prove: every tier of every pool can be laid out."""
        ...


@dataclass(frozen=True)
class TicketPlay:
    style: str
    module: TicketStyle[Any] = field(repr=False)
    params: Any = field(repr=False)

    @property
    def styles(self) -> tuple[str, ...]:
        return (self.style,)

    def document(self) -> dict[str, Any]:
        return self.module.document(self.params)

    def game_entry(self) -> dict[str, str]:
        return {"style": self.style}

    def spots(self) -> int:
        return 0  # an eInstant pool's memory is bounded by its play areas (poolgen.limits.pool_memory)

    def lay_out(self, game: Game, pool: Pool, tiers: np.ndarray, stream: Stream,
                mix: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        """`mix` is not used: a ticket style takes no weight from the rows it is given (each share is
        drawn from its tier and `pool` alone), so a block's run laid out again for the neighbour rule
        is drawn as the pool's shares are."""
        return self.module.lay_out(self.params, game, pool, tiers, stream)

    def check(self, game: Game, result: CheckResult) -> None:
        self.module.check(self.params, game, result)
