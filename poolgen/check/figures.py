"""What `poolgen check` computes and reports: a pool's figures (`PoolFigures`) and a game's result
(`GameCheck`): one `PoolFigures` per pool, under the pool ids that `generate --pool` takes (for
printed games also `order`, the whole order's figures), `problems` (a published figure disagrees:
the CLI exits 1) and `notes` (a figure agrees in value but is printed oddly, such as "$1,2500.00":
reported, not failed). Odds and percentages are exact fractions, shown rounded half-up as the
regulation rounds them (`poolgen.money.round_half_up`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from poolgen.game.model import Game, Pool, PoolTier
from poolgen.money import fmt_cents, parse_decimal, parse_printed, round_down, round_half_up, round_up

__all__ = ["GameCheck", "PoolFigures", "figures", "odds_match", "places_of", "printed_cents"]


@dataclass(frozen=True)
class PoolFigures:
    """What a pool's tiers add up to."""

    id: str
    price_cents: int
    tickets: int
    tiers: tuple[PoolTier, ...]
    may_hold: tuple[PoolTier, ...] | None = None  # a split pool: the order's tiers, each a share above 0

    @property
    def winners(self) -> int:
        return sum(t.count for t in self.tiers if t.prize_cents)

    @property
    def losers(self) -> int:
        return self.tickets - self.winners

    @property
    def prize_cost_cents(self) -> int:
        return sum(t.count * t.prize_cents for t in self.tiers)

    @property
    def sales_cents(self) -> int:
        return self.tickets * self.price_cents

    @property
    def odds(self) -> Fraction | None:
        return Fraction(self.tickets, self.winners) if self.winners else None

    @property
    def payout(self) -> Fraction:
        return Fraction(100 * self.prize_cost_cents, self.sales_cents)

    @property
    def top_prize_cents(self) -> int:
        """The largest prize a ticket of the pool can win: a tier of no ticket (count 0) is none. A split
        pool's rows are its shares rounded down, and it may hold one more of any tier of the order
        (`may_hold`): its top prize is the order's."""
        return max((t.prize_cents for t in self.may_hold or self.tiers if t.count), default=0)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "price_cents": self.price_cents,
            "tickets": self.tickets,
            "winners": self.winners,
            "losers": self.losers,
            "prize_cost_cents": self.prize_cost_cents,
            "odds_1_in": str(round_half_up(self.odds, 4)) if self.odds else None,
            "payout_pct": str(round_half_up(self.payout, 4)),
            "top_prize_cents": self.top_prize_cents,
            "tiers": [
                {"id": t.id, "prize_cents": t.prize_cents, "count": t.count,
                 "odds_1_in": str(round_half_up(Fraction(self.tickets, t.count), 2))
                 if t.count else None}
                for t in self.tiers
            ],
        }


def figures(pool: Pool) -> PoolFigures:
    return PoolFigures(pool.id, pool.price_cents, pool.tickets, pool.tiers)


@dataclass
class GameCheck:
    """The result of checking one spec."""

    game: Game
    pools: list[PoolFigures] = field(default_factory=list)  # by the ids `generate --pool` takes
    order: PoolFigures | None = None  # printed games: the whole order (every pool together)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def stated(self) -> bool:
        """Whether the spec transcribes any published figure to reconcile (`[published]`'s figures, a
        printed tier's `published_cost`, an eInstant tier's odds, count or amounts): without one, no
        figure was compared and none may be said to reconcile."""
        pub = self.game.published
        if pub.other_costs or any(v is not None for v in (pub.winners, pub.losers, pub.subtotal_cost,
                                                          pub.total_cost, pub.odds, pub.losers_odds)):
            return True
        return any(v is not None for t in self.game.tiers
                   for v in (t.published.cost, t.published.odds, t.published.amounts,
                             t.published.count, t.published.count_odds))

    def problem(self, table: str, row: str, published: object, computed: object) -> None:
        self.problems.append(f"{self.game.name}: {table}: {row}: published {published}, "
                             f"computed {computed}")

    def to_json(self) -> dict[str, Any]:
        s = self.game
        return {
            "name": s.name,
            "number": s.number,
            "regulation": s.regulation,
            "kind": s.kind,
            "spec": s.path.name,
            "spec_sha256": s.sha256,
            "pools": [p.to_json() for p in self.pools],
            "order": self.order.to_json() if self.order else None,
            "problems": list(self.problems),
            "notes": list(self.notes),
        }


def printed_cents(text: str, result: GameCheck, where: str) -> int:
    """An amount as printed, in cents; one printed oddly is noted."""
    cents, well_formed = parse_printed(text, result.game.currency)
    if not well_formed:
        result.notes.append(f"{result.game.name}: {where}: {text!r} is printed oddly; "
                            f"read as {fmt_cents(cents, result.game.currency)}")
    return cents


def odds_match(printed: str, exact: Fraction, rounding: str = "half up") -> tuple[bool, Decimal]:
    """Whether printed odds are the exact odds rounded as printed (half up, or `rounding` "down":
    truncated, or "up": rounded up), and that rounding."""
    value = parse_decimal(printed)
    rounds = {"half up": round_half_up, "down": round_down, "up": round_up}
    shown = rounds[rounding](exact, places_of(value))
    return shown == value, shown


def places_of(value: Decimal) -> int:
    """The decimal places a printed figure is written to."""
    exponent = value.as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0  # a finite decimal's exponent
