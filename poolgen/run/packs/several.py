"""The exact draw under two or more spacing rules (docs/randomness.md, 5.12), with or without winners
bounds and nothing else: "no $20 back to back and no $100 within 3 of another".

Rejection from 5.8. One rule, the primary (the largest C_k^2 (d_k - 1), the first of equals: the rule
a uniform order would break most often), is drawn exactly by 5.8 with the winners bounds; the try is
kept iff every pack meets every other rule, else the whole of 5.8 is drawn again from where the stream
stands. 5.8's draw is uniform over the sequences meeting the bounds and the primary rule; those meeting
every rule are a subset of them, so the kept try is uniform over that subset: the target (rejection
from a uniform law onto a subset). A try is kept with probability (valid sequences) / (sequences meeting
the bounds and the primary rule), about exp(-sum over the other rules of C_k^2 (d_k - 1) / T) while the
spaced tickets are sparse (the expected close pairs a rule's tickets would make in uniform places).
After MAX_TRIES tries none of which is kept, `arrange_several` returns None and the caller draws the pool
by the chain of 5.3 from where the stream stands (`packs.arrange`): a crowded pool whose true acceptance
is far below the estimate is then the chain's, as before 5.12, never refused for the tries alone.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from poolgen.rng import Stream
from poolgen.run.packs.chain import NoArrangement
from poolgen.run.packs.composition import Rules, spacing_ok
from poolgen.run.packs.spaced import arrange_spaced

__all__ = ["FEW_TRIES", "KEPT", "MAX_TRIES", "MEASURED", "acceptance", "arrange_several", "exactly_several",
           "exhausted", "kept", "primary", "spaced_alone"]

MAX_TRIES = 10_000  # tries before the pool goes to the chain of 5.3 (refused until 2026-12-05)
FEW_TRIES = 200  # check: an exhibit of more tries has the acceptance measured (docs/randomness.md 5.12)
MEASURED = 1_000  # check: the tries it then draws
KEPT = 5  # check: of which at least this many must be kept, else the spec is refused


def _figures(rules: Rules) -> list[int]:
    """Per spacing rule, C_k^2 (d_k - 1): its expected close pairs times the pool's tickets T."""
    return [sum(rules.counts[t] for t in tiers) ** 2 * (d - 1) for tiers, d in rules.spacing]


def primary(rules: Rules) -> int:
    """The index of the rule 5.8 draws: the largest C_k^2 (d_k - 1), the first of equals."""
    figures = _figures(rules)
    return figures.index(max(figures))


def _rest(rules: Rules) -> int:
    """sum over the rules but the primary of C_k^2 (d_k - 1)."""
    figures = _figures(rules)
    return sum(figures) - max(figures)


def spaced_alone(rules: Rules) -> bool:
    """Whether the rules are 5.12's kind, whatever their counts: two or more spacing rules on winning
    tiers, winners bounds at most (no cap, no value floor)."""
    return (len(rules.spacing) >= 2 and rules.min_cents is None and not rules.caps
            and all(0 not in tiers for tiers, _ in rules.spacing))


def exactly_several(rules: Rules) -> bool:
    """Whether 5.12 draws the pool: `spaced_alone`, and the estimate of a try's acceptance at least
    exp(-4) (sum_{k != primary} C_k^2 (d_k - 1) <= 4 T), in whole numbers from the pool's counts."""
    return spaced_alone(rules) and _rest(rules) <= 4 * rules.books * rules.m


def acceptance(rules: Rules) -> str:
    """The estimated acceptance of one try, exp(-sum_{k != primary} C_k^2 (d_k - 1) / T), said."""
    x = _rest(rules) / (rules.books * rules.m)
    return f"exp(-{x:.3g}) = {np.exp(-x):.2g}"


def arrange_several(stream: Stream, rules: Rules, most: int = MAX_TRIES) -> tuple[np.ndarray | None, int]:
    """The exact draw of 5.12 as (books, m) tier indices and the tries it took: tries of
    `spaced.arrange_spaced` under the winners bounds and the primary rule alone, until one whose every
    pack meets every rule; None after `most` tries none of which did (the caller's chain draws it)."""
    p = primary(rules)
    one = replace(rules, spacing=(rules.spacing[p],))
    others = replace(rules, spacing=tuple(r for k, r in enumerate(rules.spacing) if k != p))
    for tries in range(1, most + 1):
        try:
            packs = arrange_spaced(stream, one)
        except NoArrangement as exc:  # 5.8 names its one rule spacing[0]: the pool's own index instead
            raise NoArrangement(str(exc).replace("spacing[0]", f"spacing[{p}]"),
                                [f"spacing[{p}]" if s == "spacing[0]" else s for s in exc.short]) from None
        if spacing_ok(others, packs).all():
            return packs, tries
    return None, most


def kept(stream: Stream, rules: Rules, tries: int) -> int:
    """Of `tries` tries of 5.12 drawn from `stream` one after another, how many meet every rule (check's
    measure of the acceptance: docs/randomness.md 5.12)."""
    count = 0
    while tries > 0:
        packs, took = arrange_several(stream, rules, tries)
        count += packs is not None
        tries -= took
    return count


def exhausted(rules: Rules, exc: NoArrangement) -> NoArrangement:
    """The refusal of a pool none of whose MAX_TRIES tries met every rule and for which the chain that
    followed found no arrangement either (`exc`, the chain's), naming the rules but the primary."""
    named = [f"spacing[{k}]" for k in range(len(rules.spacing)) if k != primary(rules)]
    return NoArrangement(f"no try of {MAX_TRIES:,} met every spacing rule (each try accepted with "
                         f"probability about {acceptance(rules)}), nor the chain after them: {exc}", named)
