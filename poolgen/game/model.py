"""The game model: one typed `Game`, whatever spec form it was written in (docs/new-game.md).

A game is its identity, how it is sold (`Printed` tickets in books, or `EInstant` shares in pools
of one denomination and number of play areas), its symbols, its prize tiers, the pools an order
is built from, what its regulation publishes (for `poolgen check`), and its `play`: how a ticket
is laid out and what it pays, behind the `Play` protocol (poolgen/game/play.py holds the two
kinds: a ticket of play areas, or one ticket-wide style).

Only the loader (poolgen/loader/) knows spec file formats; everything here is valid by construction
(the loader refuses, in one line naming the file and field, anything that would not be).
Forks on how a game is sold are typed: `isinstance(game.sales, Printed)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from poolgen.errors import SpecError
from poolgen.files.read import display
from poolgen.game.packs import Packs
from poolgen.money import USD, Currency

if TYPE_CHECKING:  # types only: numpy and the DRBG are not needed to read a game
    import numpy as np

    from poolgen.rng.drbg import Stream

__all__ = ["CheckResult", "EInstant", "FixedPrize", "Game", "OtherCost", "Play", "Pool", "PoolTier",
           "PriceMultiple", "Printed", "Prize", "Published", "Sales", "Symbol", "Tier", "TierFigures"]


@dataclass(frozen=True)
class Symbol:
    """One symbol of the game: a play spot's number or picture, a prize, a special or a multiplier.

    `cents` is a prize symbol's value (a free ticket's is the ticket price, `free` True); `how`
    ("automatic", "multiplier" or "all") and `by` are a special or multiplier symbol's; `art` is the
    printer's art-library file that images it (a printed game's spot symbols, docs/new-game.md), or
    None."""

    index: int  # position in the spec's [[symbols]]
    group: str
    code: str
    symbol: str
    caption: str
    cents: int | None = None
    free: bool = False
    how: str | None = None
    by: int = 1
    art: str | None = None

    @property
    def captioned(self) -> str:
        """The symbol as a proof's words name it: with its caption beside it, "moneybag (WIN)", or
        alone when the spec gives none (a caption is optional)."""
        return f"{self.symbol} ({self.caption})" if self.caption else self.symbol

    @property
    def name(self) -> str:
        """The symbol as a face draws it: 'Symbol of a Golden Football' -> 'Golden Football'."""
        for prefix in ("Symbol of an ", "Symbol of a ", "Symbol of the ", "Symbol of "):
            if self.symbol.startswith(prefix):
                return self.symbol[len(prefix):]
        return self.symbol


@dataclass(frozen=True)
class FixedPrize:
    """A printed tier's prize: a fixed amount (the sum of its wins), or a free ticket."""

    cents: int
    free: bool = False


@dataclass(frozen=True)
class PriceMultiple:
    """An eInstant tier's prize: `times` the share's price (denomination x play areas)."""

    times: Decimal


Prize = FixedPrize | PriceMultiple


@dataclass(frozen=True)
class TierFigures:
    """What the regulation prints on a tier's row, as printed, for `poolgen check` to reconcile."""

    label: str | None = None  # a printed game's row text before the prize
    cost: str | None = None  # a printed game's row prize cost
    odds: str | None = None  # an eInstant's table (j) odds
    amounts: tuple[str, ...] | None = None  # an eInstant's table (i) amount per denomination
    count: str | None = None  # an eInstant's table (i) number of prizes
    count_odds: str | None = None  # an eInstant's table (i) odds


@dataclass(frozen=True)
class Tier:
    """One prize tier as the spec states it; `count` is per `counts_per` (a printed game's order or
    pool; an eInstant's pool). Tier 0 of every pool is the losers, which is no `Tier`."""

    id: str
    index: int  # 1-based, in the spec's order
    count: int
    prize: Prize
    published: TierFigures

    @property
    def cents(self) -> int:
        """A printed tier's fixed prize."""
        if not isinstance(self.prize, FixedPrize):
            raise TypeError(f"tier {self.id} pays a multiple of the price, not a fixed prize")
        return self.prize.cents

    @property
    def times(self) -> Decimal:
        """An eInstant tier's multiple of the share price (its styles read nothing else)."""
        if not isinstance(self.prize, PriceMultiple):
            raise TypeError(f"tier {self.id} has a fixed prize, not a multiple of the price")
        return self.prize.times


@dataclass(frozen=True)
class PoolTier:
    """A tier's count and prize in one pool. Tier 0 of every pool is the losing tier."""

    id: str
    prize_cents: int
    count: int


@dataclass(frozen=True)
class Pool:
    """One prize pool to build: a printed pool of whole books, or one eInstant denomination."""

    id: str
    price_cents: int
    tickets: int
    tiers: tuple[PoolTier, ...]  # losing tier first, then the spec's tiers in order
    denomination_cents: int | None = None  # eInstants
    play_areas: int | None = None  # eInstants
    first_book: int | None = None  # printed games: books first_book .. first_book + books - 1
    books: int | None = None

    @property
    def winners(self) -> int:
        return sum(t.count for t in self.tiers[1:])

    @property
    def prize_cost_cents(self) -> int:
        return sum(t.count * t.prize_cents for t in self.tiers)


@dataclass(frozen=True)
class Printed:
    """Printed tickets in books: an order of `order_tickets`, built as pools of `pool_tickets`
    (with `last_pool_partial`, the order's rest is one smaller pool). With `split = "even"` a tier's
    count per pool is its exact share rounded down or up, which pools round up drawn from the seed
    (docs/randomness.md, section 4b): until drawn, a game's pools hold the shares rounded down."""

    price_cents: int
    order_tickets: int
    pool_tickets: int
    first_ticket: int
    last_ticket: int
    counts_per: Literal["order", "pool"]
    last_pool_partial: bool = False
    split: Literal["even"] | None = None  # counts spread over the pools from the seed (poolgen/run/split.py)
    virn_digits: int = 12  # digits of each ticket's validation number (docs/validation.md)
    high_tier_cents: int = 60000  # prizes of this or more are validated only from the high-tier file

    kind: Literal["printed"] = "printed"

    @property
    def tickets_per_book(self) -> int:
        return self.last_ticket - self.first_ticket + 1


@dataclass(frozen=True)
class EInstant:
    """eInstant shares: one pool of `pool_shares` per denomination and number of play areas."""

    denominations: tuple[str, ...]  # as printed ("1.00"): `check` quotes them
    denomination_cents: tuple[int, ...]
    play_areas: tuple[int, ...]
    pool_shares: int
    order_shares: int

    kind: Literal["einstant"] = "einstant"


Sales = Printed | EInstant


@dataclass(frozen=True)
class OtherCost:
    name: str
    amount: str  # as printed


@dataclass(frozen=True)
class Published:
    """The figures the regulation publishes for the whole game, as printed (`poolgen check`)."""

    prize_table: str = "regulation"  # or "designed", "partly designed": whose tiers these are
    winners: int | None = None
    losers: int | None = None
    subtotal_cost: str | None = None
    total_cost: str | None = None
    odds: str | None = None
    losers_odds: str | None = None
    other_costs: tuple[OtherCost, ...] = ()
    free_ticket_cost: Literal["zero", "price"] | None = None  # how the table prices free tickets
    # how the table rounds its rows' "1 in" (tiers' published_odds): half up, truncated ("down") or up
    row_odds_rounding: Literal["half up", "down", "up"] = "half up"


class CheckResult(Protocol):
    """What a play's `check` reports into (poolgen/check/figures.py `GameCheck`)."""

    problems: list[str]
    notes: list[str]

    def problem(self, table: str, row: str, published: object, computed: object) -> None: ...


class Play(Protocol):
    """How a game's tickets are laid out and paid: a ticket of play areas, each of a style
    (`poolgen.game.play.AreaPlay`), or one ticket-wide style (`poolgen.game.play.TicketPlay`)."""

    @property
    def styles(self) -> tuple[str, ...]:
        """The styles it is made of (for messages)."""
        ...

    def document(self) -> dict[str, Any]:
        """The manifest's `play` entry: everything audit's engines evaluate from (docs/styles/)."""
        ...

    def game_entry(self) -> dict[str, str]:
        """What it adds to the manifest's `game` entry."""
        ...

    def spots(self) -> int:
        """Layout columns of a printed ticket, for the memory bound of its pools (0: counted by
        play areas instead, poolgen.limits.pool_memory)."""
        ...

    def lay_out(self, game: Game, pool: Pool, tiers: np.ndarray, stream: Stream,
                mix: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        """Every layout column of the given rows (each ticket's tier index), all from `stream`;
        `mix`: each tier's count in the pool (default: in `tiers`, the whole pool's when it is the
        whole pool), from which any weight a layout draws by is computed."""
        ...

    def check(self, game: Game, result: CheckResult) -> None:
        """What `poolgen check` must prove or note about laying the game's tiers out."""
        ...


@dataclass(frozen=True)
class Game:
    """A loaded game. Build it with `poolgen.loader.load_spec`."""

    path: Path  # the spec file
    sha256: str  # of the spec file's bytes
    id: str  # names the DRBG streams and default run ids (the manifest's `game.rules`)
    name: str
    number: int | None
    regulation: str
    source: str
    sales: Sales
    symbols: tuple[Symbol, ...]
    tiers: tuple[Tier, ...]
    pools: tuple[Pool, ...]
    play: Play
    published: Published
    packs: Packs = Packs()  # a printed game's pack parameters (poolgen/game/packs.py)
    currency: Currency = USD  # `game.currency`: what every amount shown is written in (poolgen/money.py)

    @property
    def kind(self) -> Literal["printed", "einstant"]:
        return self.sales.kind

    @property
    def tickets_per_book(self) -> int | None:
        return self.sales.tickets_per_book if isinstance(self.sales, Printed) else None

    def symbols_in(self, group: str) -> tuple[Symbol, ...]:
        return tuple(s for s in self.symbols if s.group == group)

    def symbol(self, code: str) -> Symbol:
        for s in self.symbols:
            if s.code == code:
                return s
        raise KeyError(code)

    @property
    def file(self) -> str:
        """The spec file as the user named it (relative or absolute), as every line about it says it: two
        folders' game.toml are told apart."""
        return display(self.path)

    def pool(self, pool_id: str) -> Pool:
        for p in self.pools:
            if p.id == pool_id:
                return p
        known = ", ".join(p.id for p in self.pools)
        raise SpecError(f"{self.file}: no pool {pool_id!r} (pools: {known})")
