"""`poolgen check` for an eInstant: its pools' figures against tables (i) and (j) as printed.

Every tier's odds (table (j)), its number of prizes, odds and amount per denomination (table (i)),
the losers and their odds, and the overall odds are recomputed from the tiers and compared with
what the spec transcribes. The order's size is a note when it differs: regulations print it as
"approximately", and a variant with fewer play areas has fewer pools.
"""

from __future__ import annotations

from fractions import Fraction

from poolgen.check.figures import GameCheck, figures, odds_match, printed_cents
from poolgen.game.model import EInstant, Game
from poolgen.money import fmt_cents, parse_decimal, parse_printed

__all__ = ["check_einstant"]

_NONE = "none: no share of a pool wins the tier"


def check_einstant(game: Game, sales: EInstant, result: GameCheck) -> None:
    cur = game.currency
    result.pools += [figures(p) for p in game.pools]
    first = result.pools[0]
    size = first.tickets
    denoms = sales.denominations
    for t in game.tiers:
        d = t.published
        row = f"multiplier {t.times:f}"
        if d.odds and not t.count:  # printed odds of a tier no share wins: never "1 in" anything
            result.problem("(j)", f"{row} odds", f"1 in {d.odds}", _NONE)
        elif d.odds:
            ok, shown = odds_match(d.odds, Fraction(size, t.count))
            if not ok:
                result.problem("(j)", f"{row} odds", f"1 in {d.odds}", f"1 in {shown}")
        if d.count is not None:
            i_count = int(parse_decimal(d.count))
            if i_count != t.count:
                result.problem("(i)", f"{row} number of prizes", d.count, f"{t.count} in (j)")
        if d.count_odds is not None and not t.count:
            result.problem("(i)", f"{row} odds", f"1 in {d.count_odds}", _NONE)
        elif d.count_odds is not None:
            ok, shown = odds_match(d.count_odds, Fraction(size, t.count))
            if not ok:
                result.problem("(i)", f"{row} odds", f"1 in {d.count_odds}", f"1 in {shown}")
        for j, printed in enumerate(d.amounts or ()):
            denom, _ = parse_printed(denoms[j], cur)
            want = t.times * denom
            got = printed_cents(printed, result, f"(i) {row}, {cur.sign}{denoms[j]} column")
            if got != want:
                result.problem("(i)", f"{row}, {cur.sign}{denoms[j]} column", printed,
                               f"{t.times:f} x {fmt_cents(denom, cur)} = {fmt_cents(int(want), cur)}")
    order, made = sales.order_shares, len(game.pools) * size  # one pool per price
    if order != made:  # regulations say "approximately": reported, not failed
        result.notes.append(f"{game.name}: einstant.order_shares: published {order:,}; the pools make "
                            f"{len(game.pools)} x {size:,} = {made:,}")
    pub = game.published
    if pub.losers is not None and pub.losers != first.losers:
        result.problem("(j)", "multiplier 0 shares", f"{pub.losers:,}", f"{first.losers:,}")
    if pub.losers_odds is not None and first.losers:
        ok, shown = odds_match(pub.losers_odds, Fraction(size, first.losers))
        if not ok:
            result.problem("(j)", "multiplier 0 odds", f"1 in {pub.losers_odds}", f"1 in {shown}")
    if pub.odds is not None and first.odds is not None:
        ok, shown = odds_match(pub.odds, first.odds)
        if not ok:
            result.problem("(j)", "overall odds", f"1 in {pub.odds}", f"1 in {shown}")
