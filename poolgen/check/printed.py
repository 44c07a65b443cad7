"""`poolgen check` for a format-2 spec (poolgen/spec_styles.py).

Everything a style cannot lay out was refused when the spec loaded; here the pools' figures are
computed and, where the spec has `[published]` figures or a tier's `published_cost`, reconciled
with them. A free-ticket prize is stored at the ticket price; `published.free_ticket_cost = "zero"`
says the regulation's table prints such rows at $0 (Kansas does), so the published costs and
totals are compared without them.
"""

from __future__ import annotations

from poolgen.check.figures import GameCheck, PoolFigures, _odds_matches, _printed, figures
from poolgen.money import fmt_cents
from poolgen.spec import PoolTier, Spec


def check_styled(spec: Spec, result: GameCheck) -> None:
    styled = spec.styles
    result.pools += [figures(p) for p in spec.pools]
    first = result.pools[0]
    order = PoolFigures("order", first.price_cents, sum(p.tickets for p in result.pools),
                        tuple(PoolTier(t.id, t.prize_cents, sum(p.tiers[i].count for p in result.pools))
                              for i, t in enumerate(first.tiers)))
    result.order = order
    if styled.prize_table != "regulation":
        result.notes.append(f"{spec.name}: the prize table is {styled.prize_table}, not the "
                            "regulation's: computed figures only where nothing is published")
    zero_free = styled.free_ticket_cost == "zero"
    per_order = spec.sales["counts_per"] == "order"
    free_cost = 0
    for t in spec.tiers:
        free = any(w.prize.free for w in styled.wins[t.id])
        count = t.count if per_order else sum(p.tiers[t.index].count for p in spec.pools)
        cost = 0 if free and zero_free else count * t.prize_cents
        if free and zero_free:
            free_cost += count * t.prize_cents
        if "published_cost" in t.data:
            label = t.data.get("get") or fmt_cents(t.prize_cents)
            row = f"row {t.index} ({label})"
            printed = _printed(t.data["published_cost"], result, f"(i) {row} prize cost")
            if printed != cost:
                result.problem("(i)", f"{row} prize cost", fmt_cents(printed),
                               f"{count:,} x {fmt_cents(0 if free and zero_free else t.prize_cents)} = "
                               f"{fmt_cents(cost)}")
    pub = spec.published
    if "winners" in pub and pub["winners"] != order.winners:
        result.problem("(i)", "total winners", f"{pub['winners']:,}", f"{order.winners:,}")
    subtotal = order.prize_cost_cents - free_cost
    if "subtotal_cost" in pub:
        printed = _printed(pub["subtotal_cost"], result, "(i) sub-total")
        if printed != subtotal:
            result.problem("(i)", "prize cost sub-total", fmt_cents(printed), fmt_cents(subtotal))
    other = sum(_printed(c["amount"], result, f"(i) {c['name']}") for c in pub.get("other_costs", []))
    if "total_cost" in pub:
        printed = _printed(pub["total_cost"], result, "(i) total")
        if printed != subtotal + other:
            result.problem("(i)", "prize cost total", fmt_cents(printed),
                           f"{fmt_cents(subtotal)} + {fmt_cents(other)} other = "
                           f"{fmt_cents(subtotal + other)}")
    for area in styled.areas:  # what a style's layout cannot promise for these counts
        note = getattr(area.module, "layout_note", None)
        for pool in spec.pools if note else ():
            why = note(area.params, [(pt.count, tuple(w for w in styled.wins[pt.id] if w.area == area.id))
                                     for pt in pool.tiers])
            if why:
                result.notes.append(f"{spec.name}: pool {pool.id}: area {area.id!r}: {why}")
                break
    if "odds" in pub and order.odds is not None:
        ok, shown = _odds_matches(pub["odds"], order.odds)
        if not ok:
            result.problem("(j)", "overall odds", f"1 in {pub['odds']}", f"1 in {shown}")
