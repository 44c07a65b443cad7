"""What a multiplier box does to a tier's wins (docs/styles/play.md, rule 2; docs/styles/ticket_multiplier.md,
section 9): a win `how = "ticket"` of k pays nothing itself and multiplies the wins it covers, every
other win of the ticket or, with `multiplies`, those of the areas (and crossword puzzles) it names."""

from __future__ import annotations

from collections.abc import Sequence

from poolgen.game.play import TICKET, Win

__all__ = ["counted_wins", "covered", "ticket_cents", "ticket_problem"]


def covered(times: Win, w: Win) -> bool:
    """Whether the multiplier win `times` multiplies the win `w` (section 9: `Win.over`, () = all; a
    puzzle's codes cover its legend's wins, `how` "match", never a bonus word's of the same code)."""
    return w.how != TICKET and (not times.over or any(
        w.area == area and (codes is None or (w.how == "match" and w.prize.code in codes))
        for area, codes in times.over))


def ticket_cents(wins: Sequence[Win]) -> int:
    """What a ticket of these wins pays: the sum of its wins, each covered one times the k of the
    multiplier among them (a win `how = "ticket"`, paying nothing by itself)."""
    total = 0
    for w in wins:
        if w.how != TICKET:
            times = 1
            for t in wins:
                if t.how == TICKET and covered(t, w):
                    times *= t.by
            total += times * w.cents
    return total


def counted_wins(wins: Sequence[Win]) -> int:
    """A ticket's number of wins (what `max_wins` bounds): a ticket-wide multiplier is not one."""
    return sum(1 for w in wins if w.how != TICKET)


def ticket_problem(wins: Sequence[Win]) -> str | None:
    """Why a tier's wins cannot carry a multiplier (None: they can, or have none)."""
    times = [w for w in wins if w.how == TICKET]
    if not times:
        return None
    if len(times) > 1:
        return f"{len(times)} ticket-wide multipliers; a ticket shows at most one"
    mine = [w for w in wins if covered(times[0], w)]
    if not mine and times[0].over:
        return "a multiplier and no win in what it multiplies: nothing to multiply"
    if not mine:
        return ("a ticket-wide multiplier and no other win: nothing to multiply (a tier that wins "
                "nothing lists no multiplier; `multipliers_on_losers` shows them on losers)")
    if any(w.prize.free for w in mine):
        return "a ticket-wide multiplier on a free ticket: a free ticket is not multiplied"
    return None
