"""A bingo card's cells and a pattern's cell sets as tables (docs/styles/bingo.md, section 7): which
cells need a called number, each set as a column of a 0/1 table, and how many cards complete a set
(the weight of a pattern of several sets)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import lcm, perm

import numpy as np

__all__ = ["CENTRE", "acceptance", "cells_of", "profile_table", "set_table"]

CENTRE = 12


@cache
def set_table(sets: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """A pattern's cell sets as a (25, sets) 0/1 table and each set's size: a card completes set i
    when its marked cells times column i is the set's size."""
    table = np.zeros((25, len(sets)), dtype=np.int16)
    for i, alt in enumerate(sets):
        table[list(alt), i] = 1
    return table, table.sum(axis=0)


def cells_of(c: int, free: bool) -> list[int]:
    """Column c's cells that need a called number, top to bottom (the FREE centre needs none)."""
    return [r * 5 + c for r in range(5) if not (free and r * 5 + c == CENTRE)]


@cache
def _profiles(sets: tuple[tuple[int, ...], ...], free: bool) -> tuple[tuple[tuple[tuple[int, int], ...], ...],
                                                                    tuple[int, ...]]:
    """A pattern's distinct per-column profiles, per column (its cells needing a number, the column's
    numbered cells), and each cell set's profile: sets of one profile are completed by as many cards."""
    profiles: list[tuple[tuple[int, int], ...]] = []
    of_set: list[int] = []
    for alt in sets:
        profile = tuple((sum(1 for k in cells_of(c, free) if k in alt), len(cells_of(c, free)))
                        for c in range(5))
        if profile not in profiles:
            profiles.append(profile)
        of_set.append(profiles.index(profile))
    return tuple(profiles), tuple(of_set)


@cache
def _card_counts(sets: tuple[tuple[int, ...], ...], free: bool, have: tuple[int, ...]) -> tuple[int, ...]:
    """Per profile (`_profiles`): N, the cards whose cell set of that profile is all called, when
    column c holds have[c] called numbers."""
    counts = []
    for per_column in _profiles(sets, free)[0]:
        n = 1
        for a, (s, cells) in zip(have, per_column, strict=True):
            n *= perm(a, s) * perm(15 - s, cells - s)
        counts.append(n)
    return tuple(counts)


@cache
def acceptance(sets: tuple[tuple[int, ...], ...], free: bool, have: tuple[int, ...],
                held: tuple[int, ...]) -> Fraction:
    """(1 / N_max) / (sum over the complete sets of 1 / N_i), N_i the cards whose set i is all called
    (exact), held[j] the complete sets of profile j (`_profiles`: they share one N)."""
    counts = _card_counts(sets, free, have)
    # the sum of k / N_j over a common denominator (their lcm), then one reduction: the same Fraction
    # as summing Fractions, at one gcd instead of one per term
    terms = [(k, counts[j]) for j, k in enumerate(held) if k]
    common = lcm(*(n for _, n in terms))
    return Fraction(common, max(counts) * sum(k * (common // n) for k, n in terms))


@cache
def profile_table(sets: tuple[tuple[int, ...], ...], free: bool) -> np.ndarray:
    """(sets, profiles) 0/1: each cell set's profile."""
    of_set = _profiles(sets, free)[1]
    table = np.zeros((len(sets), max(of_set) + 1), dtype=np.int16)
    table[np.arange(len(sets)), of_set] = 1
    return table
