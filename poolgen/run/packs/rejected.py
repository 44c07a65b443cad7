"""The exact draw of rules beside rules by rejection (docs/randomness.md, 5.13): caps and spacing rules
together that no earlier section takes ("at most one $100 a pack, no $20 or $100 back to back, the $20
at least 3 apart"; "at most two $20 a pack and no $100 back to back"; three caps beside winners bounds).

A try is the exact draw (5.6 to 5.10) of the *base*, the winners bounds and a subset of the caps and
spacing rules that one of those sections takes alone; it is kept iff every pack meets the other rules,
else the base is drawn again from where the stream stands. The base's draw is uniform over the sequences
meeting the base's rules; those meeting every rule are a subset of them, so the kept try is uniform over
that subset: the target. The base is the subset whose left-out rules have the least estimated cost (the
expected packs a uniform draw would leave breaking them: C^2 (d - 1) / T a spacing rule, as 5.12's,
C^(k + 1) / (B^k (k + 1)!) a cap of k); 5.13 is used iff that cost is at most 4 (a try kept with
probability about exp(-cost)). After MAX_TRIES tries none of which is kept, the chain of 5.3 draws the
pool from where the stream stands (`packs.arrange`), as 5.12's fallback.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

import numpy as np

from poolgen.rng import Stream
from poolgen.run.packs.beside import arrange_beside, exactly_beside
from poolgen.run.packs.capped import arrange_capped, exactly_capped
from poolgen.run.packs.caps import arrange_caps, caps_alone, exactly_caps
from poolgen.run.packs.chain import NoArrangement
from poolgen.run.packs.composition import Rules, in_tiers, spacing_ok
from poolgen.run.packs.several import MAX_TRIES, spaced_alone
from poolgen.run.packs.spaced import arrange_spaced, exactly_spaced

__all__ = ["MOST_COST", "acceptance", "arrange_rejected", "base_of", "cost", "exactly_rejected", "exhausted",
           "kept", "left_out", "rejected_kind"]

MOST_COST = 4  # 5.13 is used iff the left-out rules' estimated cost is at most this (acceptance exp(-4))
MOST_RULES = 8  # 5.13 searches the 2^R - 1 subsets of R caps and spacing rules: at most this many (255)


def rejected_kind(rules: Rules) -> bool:
    """Whether the rules are 5.13's kind, whatever their counts: at most MOST_RULES caps and spacing rules
    on winning tiers, winners bounds at most (no value floor), that no earlier section's kind takes (5.6
    to 5.10, 5.12: several disjoint caps alone and several spacing rules alone keep their own sections'
    rules)."""
    if rules.min_cents is not None or rules.winners_only or len(rules.caps) + len(rules.spacing) > MOST_RULES:
        return False
    if any(0 in tiers for tiers, _ in (*rules.caps, *rules.spacing)):
        return False
    return not (exactly_capped(rules) or exactly_spaced(rules) or exactly_beside(rules)
                or caps_alone(rules) or spaced_alone(rules))


def cost(rules: Rules, q: int) -> Fraction:
    """Rule q's estimated cost (q < len(caps): caps[q]; else spacing[q - len(caps)]): the expected packs
    a uniform draw leaves breaking it while its tickets are sparse, C^2 (d - 1) / T for a spacing rule
    (its expected close pairs), C^(k + 1) / (B^k (k + 1)!) for a cap of k (B times the Poisson bound
    on a pack holding more than k)."""
    r = len(rules.caps)
    tiers, figure = rules.caps[q] if q < r else rules.spacing[q - r]
    held = sum(rules.counts[t] for t in tiers)
    if q >= r:
        return Fraction(held * held * (figure - 1), rules.books * rules.m)
    return Fraction(held ** (figure + 1), rules.books ** figure * math.factorial(figure + 1))


def _restricted(rules: Rules, mask: int) -> Rules:
    """The winners bounds and the rules whose bit is in `mask` (caps first, then spacing rules)."""
    r = len(rules.caps)
    return replace(rules, caps=tuple(c for i, c in enumerate(rules.caps) if mask >> i & 1),
                   spacing=tuple(s for j, s in enumerate(rules.spacing) if mask >> (r + j) & 1))


def _exact(base: Rules) -> bool:
    """Whether one of 5.6 to 5.10 draws the base alone (as `packs.arrange` would choose it)."""
    return exactly_capped(base) or exactly_spaced(base) or exactly_beside(base) or exactly_caps(base)


@lru_cache(maxsize=256)
def base_of(rules: Rules) -> tuple[int, Fraction]:
    """(mask, cost): the base, as a bit mask over the rules (caps in order, then spacing rules), whose
    left-out rules cost least (the first of equals in increasing mask order) among the nonempty subsets
    one of 5.6 to 5.10 takes alone with the winners bounds, and their cost ((0, inf) when none does)."""
    total = len(rules.caps) + len(rules.spacing)
    costs = [cost(rules, q) for q in range(total)]
    best: tuple[int, Fraction] | None = None
    for mask in range(1, 1 << total):
        if not _exact(_restricted(rules, mask)):
            continue
        rest = sum((c for q, c in enumerate(costs) if not mask >> q & 1), Fraction(0))
        if best is None or rest < best[1]:
            best = (mask, rest)
    return best if best is not None else (0, Fraction(10 ** 9))


def exactly_rejected(rules: Rules) -> bool:
    """Whether 5.13 draws the pool: `rejected_kind`, and a base whose left-out rules cost at most
    MOST_COST (a try kept with probability about exp(-4) or more), in exact fractions of the counts."""
    return rejected_kind(rules) and base_of(rules)[1] <= MOST_COST


def left_out(rules: Rules) -> list[str]:
    """The names of the rules the base leaves out (what a try is kept or rejected on)."""
    mask, r = base_of(rules)[0], len(rules.caps)
    return [f"caps[{q}]" if q < r else f"spacing[{q - r}]"
            for q in range(r + len(rules.spacing)) if not mask >> q & 1]


def acceptance(rules: Rules) -> str:
    """The estimated acceptance of one try, exp(-cost of the left-out rules), said."""
    x = float(base_of(rules)[1])
    return f"exp(-{x:.3g})" + (f" = {math.exp(-x):.2g}" if x < 700 else "")


def _renamed(exc: NoArrangement, mask: int, rules: Rules) -> NoArrangement:
    """The base's refusal, its caps[i] and spacing[j] named as the pool's rules are."""
    r = len(rules.caps)
    caps = [q for q in range(r) if mask >> q & 1]
    spacing = [j for j in range(len(rules.spacing)) if mask >> (r + j) & 1]

    def name(found: re.Match[str]) -> str:
        kind, i = found.group(1), int(found.group(2))
        return f"{kind}[{(caps if kind == 'caps' else spacing)[i]}]"

    def sub(text: str) -> str:
        return re.sub(r"\b(caps|spacing)\[(\d+)\]", name, text)
    return NoArrangement(sub(str(exc)), [sub(s) for s in exc.short])


def _base_draw(stream: Stream, base: Rules) -> np.ndarray:
    """The base's exact draw, as `packs.arrange` chooses it (5.6 or 5.7, 5.8, 5.9, 5.10)."""
    if exactly_capped(base):
        return arrange_capped(stream, base)
    if exactly_spaced(base):
        return arrange_spaced(stream, base)
    if exactly_beside(base):
        return arrange_beside(stream, base)
    return arrange_caps(stream, base)


def _meets(rest: Rules, packs: np.ndarray) -> bool:
    """Whether every pack (a row) meets every cap and spacing rule of `rest`."""
    for tiers, most in rest.caps:
        if (in_tiers(rest, tiers)[packs].sum(axis=1) > most).any():
            return False
    return bool(spacing_ok(rest, packs).all())


def arrange_rejected(stream: Stream, rules: Rules, most: int = MAX_TRIES) -> tuple[np.ndarray | None, int]:
    """The exact draw of 5.13 as (books, m) tier indices and the tries it took: tries of the base's draw
    until one whose every pack meets the left-out rules; None after `most` tries none of which did."""
    mask = base_of(rules)[0]
    base = _restricted(rules, mask)
    every = (1 << (len(rules.caps) + len(rules.spacing))) - 1
    rest = _restricted(replace(rules, lo=0, hi=rules.m), every - mask)  # the bounds are the base's
    for tries in range(1, most + 1):
        try:
            packs = _base_draw(stream, base)
        except NoArrangement as exc:
            raise _renamed(exc, mask, rules) from None
        if _meets(rest, packs):
            return packs, tries
    return None, most


def kept(stream: Stream, rules: Rules, tries: int) -> int:
    """Of `tries` tries of 5.13 drawn from `stream` one after another, how many meet every rule (check's
    measure, as 5.12's)."""
    count = 0
    while tries > 0:
        packs, took = arrange_rejected(stream, rules, tries)
        count += packs is not None
        tries -= took
    return count


def exhausted(rules: Rules, exc: NoArrangement) -> NoArrangement:
    """The refusal of a pool none of whose MAX_TRIES tries met every rule and for which the chain that
    followed found none either (`exc`, the chain's), naming the left-out rules."""
    return NoArrangement(f"no try of {MAX_TRIES:,} met every rule (each try accepted with probability about "
                         f"{acceptance(rules)}), nor the chain after them: {exc}", left_out(rules))
