"""`poolgen check` for a printed game (poolgen/loader/printed.py).

Everything a style cannot lay out was refused when the spec loaded; here the pools' figures and the
whole order's are computed and, where the spec has `[published]` figures or a tier's
`published_cost` or `published_odds`, reconciled with them. A free-ticket prize is stored at the ticket price;
`published.free_ticket_cost = "zero"` says the regulation's table prints such rows at $0 (Kansas
does), so the published costs and totals are compared without them.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from poolgen.check.figures import GameCheck, PoolFigures, figures, odds_match, places_of, printed_cents
from poolgen.game.model import FixedPrize, Game, PoolTier, Printed, Published
from poolgen.money import fmt_cents, parse_decimal, round_down, round_up

__all__ = ["check_printed", "split_note"]


def check_printed(game: Game, sales: Printed, result: GameCheck) -> None:
    cur = game.currency
    result.pools += [figures(p) for p in game.pools]
    first = result.pools[0]
    tickets = sum(p.tickets for p in result.pools)
    counts = [sum(p.tiers[i].count for p in result.pools) for i in range(len(first.tiers))]
    if sales.split is not None:  # the pools hold their shares rounded down until a seed draws the rest
        counts = [tickets - sum(t.count for t in game.tiers)] + [t.count for t in game.tiers]
        result.notes.append(split_note(game, sales))
    order = PoolFigures("order", first.price_cents, tickets,
                        tuple(PoolTier(t.id, t.prize_cents, c)
                              for t, c in zip(first.tiers, counts, strict=True)))
    result.order = order
    if sales.split is not None:  # a pool may hold one more of any tier than its share rounded down
        result.pools = [replace(p, may_hold=order.tiers) for p in result.pools]
    pub = game.published
    if pub.prize_table != "regulation":
        result.notes.append(f"{game.name}: the prize table is {pub.prize_table}, not the "
                            "regulation's: computed figures only where nothing is published")
    zero_free = pub.free_ticket_cost == "zero"
    per_order = sales.counts_per == "order"
    free_cost = 0
    for t in game.tiers:
        free = isinstance(t.prize, FixedPrize) and t.prize.free
        count = t.count if per_order else sum(p.tiers[t.index].count for p in game.pools)
        cost = 0 if free and zero_free else count * t.cents
        if free and zero_free:
            free_cost += count * t.cents
        if t.published.cost is not None:
            label = t.published.label or fmt_cents(t.cents, cur)
            row = f"row {t.index} ({label})"
            printed = printed_cents(t.published.cost, result, f"(i) {row} prize cost")
            if printed != cost:
                result.problem("(i)", f"{row} prize cost", fmt_cents(printed, cur),
                               f"{count:,} x {fmt_cents(0 if free and zero_free else t.cents, cur)} = "
                               f"{fmt_cents(cost, cur)}")
        if t.published.odds is not None:  # the row's "1 in": the order's tickets over its count
            ok, shown = odds_match(t.published.odds, Fraction(order.tickets, count), pub.row_odds_rounding) \
                if count else (False, "none: no ticket of the row in the order")
            if not ok:
                row = f"row {t.index} ({t.published.label or fmt_cents(t.cents, cur)})"
                hint = _truncated(t.published.odds, count, order, pub) if count else ""
                result.problem("(j)", f"{row} odds", f"1 in {t.published.odds}",
                               shown if not count else f"1 in {shown}{hint}")
    if pub.winners is not None and pub.winners != order.winners:
        result.problem("(i)", "total winners", f"{pub.winners:,}", f"{order.winners:,}")
    subtotal = order.prize_cost_cents - free_cost
    if pub.subtotal_cost is not None:
        printed = printed_cents(pub.subtotal_cost, result, "(i) sub-total")
        if printed != subtotal:
            result.problem("(i)", "prize cost sub-total", fmt_cents(printed, cur), fmt_cents(subtotal, cur))
    other = sum(printed_cents(c.amount, result, f"(i) {c.name}") for c in pub.other_costs)
    if pub.total_cost is not None:
        printed = printed_cents(pub.total_cost, result, "(i) total")
        if printed != subtotal + other:
            result.problem("(i)", "prize cost total", fmt_cents(printed, cur),
                           f"{fmt_cents(subtotal, cur)} + {fmt_cents(other, cur)} other = "
                           f"{fmt_cents(subtotal + other, cur)}")
    if pub.odds is not None and order.odds is not None:
        ok, shown = odds_match(pub.odds, order.odds)
        if not ok:
            result.problem("(j)", "overall odds", f"1 in {pub.odds}", f"1 in {shown}")


def _truncated(printed: str, count: int, order: PoolFigures, pub: Published) -> str:
    """A hint, when a row's printed odds are its exact odds truncated, or rounded up, and the spec rounds
    them half up."""
    if pub.row_odds_rounding != "half up":
        return ""
    value = parse_decimal(printed)
    exact = Fraction(order.tickets, count)
    cut = round_down(exact, places_of(value))
    if cut == value:
        return (f" (truncated {cut}: a table that truncates its rows' odds says row_odds_rounding = \"down\" "
                f"in [published])")
    up = round_up(exact, places_of(value))
    return (f" (rounded up {up}: a table that rounds its rows' odds up says row_odds_rounding = \"up\" in "
            f"[published])") if up == value else ""


def split_note(game: Game, sales: Printed) -> str:
    """How `split = "even"` spreads the counts: the pools' rows show each share rounded down (the
    audit report, which has a run's drawn counts, shows those instead of this note)."""
    spread = [t for t in game.tiers if any(t.count * p.tickets % sales.order_tickets for p in game.pools)]
    rarest = min(spread, key=lambda t: t.count)
    shares = ", ".join(f"{p.id} {p.tiers[rarest.index].count} or {p.tiers[rarest.index].count + 1}"
                       if rarest.count * p.tickets % sales.order_tickets else
                       f"{p.id} {p.tiers[rarest.index].count}" for p in game.pools)
    return (f"{game.name}: counts split evenly (printed.split = \"even\"): {len(spread)} of "
            f"{len(game.tiers)} tiers do not scale exactly to every pool; each pool holds its exact share "
            f"rounded down or up, which pools round up drawn from the run's seed (docs/randomness.md 4b), "
            f"the pools adding up to the order's counts; the pools' figures show the shares rounded "
            f"down, the order's are exact (tier {rarest.id}, {rarest.count:,} per order: {shares})")
