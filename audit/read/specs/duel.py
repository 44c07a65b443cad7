"""A `prize_legend_duel` spec's legend values no tier can show, refused as poolgen's `check` and
`generate` refuse them, in the same words (docs/styles/prize_legend_duel.md, section 7): a value no kept
decomposition of any tier holds is a prize symbol no share would ever reveal, a field nothing uses.

Written from section 7 alone: a decomposition of a tier of multiplier T is m >= 0 multiplier spots and a
non-empty multiset of legend values a_1 .. a_k with (1 + m)(a_1 + .. + a_k) = T and k + m <= N_max
(spots - losses); listed by m ascending, then by the copies of the largest value ascending, then of the
next largest, ...; of more than `max_decompositions`, those at indices floor(i x total / cap) are kept.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

from audit.errors import UnusableInput

__all__ = ["refuse_unshown_legend"]


def _shown(target: Fraction, legend: list[Fraction], cap: int, non_loss: int) -> tuple[int, set[Fraction]]:
    """(how many decompositions pay `target`, the legend values the kept ones hold)."""
    unit = math.lcm(target.denominator, *(v.denominator for v in legend))
    big = sorted((int(v * unit) for v in legend), reverse=True)  # the largest first: the listing's order
    goal = int(target * unit)

    @cache
    def ways(s: int, j: int, p: int) -> int:  # multisets of big[j:] summing to s in at most p parts
        if s == 0:
            return 1
        if j == len(big) or s > p * big[j]:
            return 0
        return sum(ways(s - c * big[j], j + 1, p - c) for c in range(min(p, s // big[j]) + 1))

    lists = [(goal // (1 + m), non_loss - m) for m in range(non_loss) if goal > 0 and goal % (1 + m) == 0]
    sizes = [ways(s, 0, p) for s, p in lists]
    total = sum(sizes)
    held: set[Fraction] = set()
    for index in range(total) if total <= cap else (i * total // cap for i in range(cap)):
        for (s, p), n in zip(lists, sizes, strict=True):
            if index >= n:
                index -= n
                continue
            j = 0
            while s:  # the index-th multiset: copies of big[j] ascending, then of big[j + 1], ...
                for c in range(min(p, s // big[j]) + 1):
                    n = ways(s - c * big[j], j + 1, p - c)
                    if index < n:
                        if c:
                            held.add(Fraction(big[j], unit))
                        s, p = s - c * big[j], p - c
                        break
                    index -= n
                j += 1
            break
    return total, held


def _text(v: Fraction) -> str:
    """A legend value as its decimal string (exact: legend values are decimals)."""
    return f"{Decimal(v.numerator) / Decimal(v.denominator):f}"


def refuse_unshown_legend(doc: dict[str, Any]) -> None:
    """UnusableInput `play.legend: <n> tier(s) cannot be laid out: ...` naming every tier no decomposition
    pays, else `play.legend[j]: not used: ...` for the first legend value, in spec order, that no kept
    decomposition of any tier holds (the words of poolgen's check and generate)."""
    play, tiers = doc["play"], doc["tiers"]
    legend = [Fraction(Decimal(v)) for v in play["legend"]]
    non_loss, cap = play["spots"] - play["losses"], play["max_decompositions"]
    held: set[Fraction] = set()
    unlaid = []
    for t in tiers:
        times = Decimal(t["multiplier"])
        total, values = _shown(Fraction(times), legend, cap, non_loss)
        if not total:
            unlaid.append(f"m{times.normalize():f} ({times:f})")
        held |= values
    if unlaid:  # refused for that first, every such tier in spec order (section 7)
        listed = ", ".join(_text(v) for v in sorted(legend))
        raise UnusableInput(f"play.legend: {len(unlaid)} tier(s) cannot be laid out: no (1 + m) x sum "
                            f"of legend values [{listed}] within {non_loss} non-loss spots equals the "
                            f"multiplier of {', '.join(unlaid)}")
    for j, v in enumerate(legend):
        if v not in held:
            raise UnusableInput(f"play.legend[{j}]: not used: no kept decomposition of any tier wins "
                                f"{_text(v)} (a prize symbol no share would ever reveal)")
