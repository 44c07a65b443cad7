"""The prize-structure check: figures computed from a spec's tiers against what the regulation prints.

`check_spec(spec)` returns a `GameCheck`: one `PoolFigures` per pool, under the pool ids that
`generate --pool` takes (for printed games also `order`, the whole order's figures), `problems` (a
published figure disagrees: the CLI exits 1) and `notes` (a figure agrees in value but is printed
oddly, such as "$1,2500.00": reported, not failed).
Odds and percentages are exact fractions, shown rounded half-up as the regulation rounds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from poolgen.money import fmt_cents, parse_decimal, parse_printed
from poolgen.spec import Pool, PoolTier, Spec


def round_half_up(value: Fraction, places: int = 2) -> Decimal:
    """A fraction rounded as printed tables round: half away from zero, to `places` decimals."""
    q = Decimal(1).scaleb(-places)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(q, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class PoolFigures:
    """What a pool's tiers add up to."""

    id: str
    price_cents: int
    tickets: int
    tiers: tuple[PoolTier, ...]

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
        return max(t.prize_cents for t in self.tiers)

    def to_json(self) -> dict:
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

    spec: Spec
    pools: list[PoolFigures] = field(default_factory=list)  # by the ids `generate --pool` takes
    order: PoolFigures | None = None  # printed games: the whole order (every pool together)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def problem(self, table: str, row: str, published: object, computed: object) -> None:
        self.problems.append(f"{self.spec.name}: {table}: {row}: published {published}, "
                             f"computed {computed}")

    def to_json(self) -> dict:
        s = self.spec
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


def check_spec(spec: Spec) -> GameCheck:
    """Compute every pool's figures and cross-check every published figure of the spec."""
    result = GameCheck(spec)
    if spec.styles is not None:  # a game of generic play styles: poolgen/check/printed.py
        from poolgen.check.printed import check_styled

        check_styled(spec, result)
        return result
    _check_einstant(spec, result)  # format 1: an eInstant of a generic style (poolgen/styles/<style>.py)
    # The style's module may prove more (e.g. that every tier can be laid out at all).
    from poolgen.styles import einstant_module

    extra = getattr(einstant_module(spec.style), "check_structure", None)
    if extra is not None:
        extra(spec, result)
    return result


def _printed(text: str, result: GameCheck, where: str) -> int:
    cents, well_formed = parse_printed(text)
    if not well_formed:
        result.notes.append(f"{result.spec.name}: {where}: {text!r} is printed oddly; "
                            f"read as {fmt_cents(cents)}")
    return cents


def _odds_matches(printed: str, exact: Fraction) -> tuple[bool, Decimal]:
    value = parse_decimal(printed)
    places = max(0, -value.as_tuple().exponent)
    shown = round_half_up(exact, places)
    return shown == value, shown


def _check_einstant(spec: Spec, result: GameCheck) -> None:
    result.pools += [figures(p) for p in spec.pools]
    first = result.pools[0]
    size = first.tickets
    denoms = spec.sales["denominations"]
    for t in spec.tiers:
        d = t.data
        row = f"multiplier {t.multiplier:f}"
        ok, shown = _odds_matches(d["odds"], Fraction(size, t.count)) if t.count else (True, None)
        if not ok:
            result.problem("(j)", f"{row} odds", f"1 in {d['odds']}", f"1 in {shown}")
        if "i_count" in d:
            i_count = int(parse_decimal(d["i_count"]))
            if i_count != t.count:
                result.problem("(i)", f"{row} number of prizes", d["i_count"], f"{t.count} in (j)")
        if "i_odds" in d and t.count:
            ok, shown = _odds_matches(d["i_odds"], Fraction(size, t.count))
            if not ok:
                result.problem("(i)", f"{row} odds", f"1 in {d['i_odds']}", f"1 in {shown}")
        for j, printed in enumerate(d.get("i_amounts", [])):
            denom, _ = parse_printed(denoms[j])
            want = t.multiplier * denom
            got = _printed(printed, result, f"(i) {row}, ${denoms[j]} column")
            if got != want:
                result.problem("(i)", f"{row}, ${denoms[j]} column", printed,
                               f"{t.multiplier:f} x {fmt_cents(denom)} = {fmt_cents(int(want))}")
    order, made = spec.sales["order_shares"], len(spec.pools) * size  # one pool per price
    if order != made:  # regulations say "approximately": reported, not failed
        result.notes.append(f"{spec.name}: einstant.order_shares: published {order:,}; the pools make "
                            f"{len(spec.pools)} x {size:,} = {made:,}")
    pub = spec.published
    if "losers" in pub and pub["losers"] != first.losers:
        result.problem("(j)", "multiplier 0 shares", f"{pub['losers']:,}", f"{first.losers:,}")
    if "losers_odds" in pub and first.losers:
        ok, shown = _odds_matches(pub["losers_odds"], Fraction(size, first.losers))
        if not ok:
            result.problem("(j)", "multiplier 0 odds", f"1 in {pub['losers_odds']}", f"1 in {shown}")
    if "odds" in pub and first.odds is not None:
        ok, shown = _odds_matches(pub["odds"], first.odds)
        if not ok:
            result.problem("(j)", "overall odds", f"1 in {pub['odds']}", f"1 in {shown}")
