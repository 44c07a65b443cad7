"""How many orders of one pack meet several spacing rules at once (docs/statistics.md 1b, *Each tier
given the rest of its pair of packs*): the factor h of a pack's composition under two or more spacing
rules, where one rule's closed form (apart(m, c, d) / C(m, c)) has no counterpart. Written from the
documents alone: no code of poolgen's.

A pack's spaced tickets fall in *kinds*: a kind is the set of rules whose tiers hold a ticket's tier
(a tier named by two rules is of the kind of both). With n_k tickets of each kind and the pack's other
m - sum n tickets unspaced, N(n) is the number of sequences of m kind labels (the unspaced one
included) in which, for every rule r, two places whose kinds contain r are at least d_r apart; and

    h(n) = N(n) / (m! / ((m - sum n)! prod_k n_k!)),

the share of the pack's orders meeting every rule, given its composition. N is counted by one pass
over the m places, the state the tickets of each kind placed so far and, for each rule, how many places
back its last ticket is (1 .. d_r, d_r meaning "far enough": a rule's ticket may go where its count is
d_r); an unspaced ticket moves every count one on (d_r stays d_r), a ticket of kind k needs every rule
of k at d_r and sets those to 1. Every n up to a bound per kind is counted in the one pass; the counts
are floats rescaled at every place (their logarithm kept apart), exact to about 1e-13 relative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["CELLS", "cells", "log_share"]

CELLS = 200_000  # most cells (kinds' counts x rules' distances) of one pass: beyond, the test is not made


def _advance(table: np.ndarray, axis: int) -> np.ndarray:
    """One more place since the rule's last ticket, d_r staying d_r (the rule's axis holds 1 .. d_r)."""
    out = np.zeros_like(table)
    head = [slice(None)] * table.ndim
    tail = [slice(None)] * table.ndim
    head[axis], tail[axis] = slice(1, None), slice(None, -1)
    out[tuple(head)] = table[tuple(tail)]
    last = [slice(None)] * table.ndim
    last[axis] = slice(-1, None)
    out[tuple(last)] += table[tuple(last)]
    return out


def _place(table: np.ndarray, kind: int, rules: frozenset[int], kinds: int,
           distances: Sequence[int]) -> np.ndarray:
    """A ticket of `kind` (held by `rules`) at the next place: from states where each of its rules is at
    its distance, to those rules at 1, the others one on, the kind's count one up."""
    ready = [slice(None)] * table.ndim
    for r in rules:
        ready[kinds + r] = slice(distances[r] - 1, distances[r])
    part = table[tuple(ready)]
    for r in range(len(distances)):
        if r not in rules:
            part = _advance(part, kinds + r)
    out = np.zeros_like(table)
    to = [slice(None)] * table.ndim
    source = [slice(None)] * table.ndim
    for r in rules:
        to[kinds + r] = slice(0, 1)
    to[kind], source[kind] = slice(1, None), slice(None, -1)
    out[tuple(to)] = part[tuple(source)]
    return out


def cells(most: Sequence[int], distances: Sequence[int]) -> int:
    return int(np.prod([k + 1 for k in most], dtype=np.int64) * np.prod(distances, dtype=np.int64))


def log_multinomial(m: int, most: Sequence[int]) -> np.ndarray:
    """ln(m! / ((m - sum n)! prod_k n_k!)) for every n with n_k <= most[k] (0 where sum n > m: masked by
    the caller), as the sum over the kinds of ln C(m - n_1 - .. - n_(k-1), n_k), each the logarithm of an
    exact integer: differences of log-factorials near ln(300!) lost about 5e-13 of h, 2e-12 of a pair
    test's p (docs/statistics.md 1b)."""
    top = max(most, default=0)
    logc = np.zeros((m + 1, top + 1))  # ln C(a, b), 0 where b > a (never read unmasked)
    for a in range(m + 1):
        row = [math.log(math.comb(a, b)) for b in range(min(a, top) + 1)]
        logc[a, : len(row)] = row
    grid = np.indices([n + 1 for n in most])
    out = np.zeros(grid.shape[1:])
    used = np.zeros(grid.shape[1:], dtype=np.int64)
    for n in grid:
        out += logc[np.clip(m - used, 0, m), n]
        used += n
    return out


def log_share(m: int, kinds: Sequence[frozenset[int]], distances: Sequence[int],
              most: Sequence[int]) -> np.ndarray:
    """log h(n) for every n with n_k <= most[k] (axis k: kind k's count), -inf where no order meets the
    rules (or more tickets than places). `kinds` the rules (indices into `distances`) of each kind."""
    if cells(most, distances) > CELLS:
        raise ValueError(f"{cells(most, distances):,} cells, more than {CELLS:,}")
    k = len(kinds)
    table = np.zeros([n + 1 for n in most] + list(distances))
    table[(0,) * k + tuple(d - 1 for d in distances)] = 1.0  # nothing placed, every rule far enough
    scale = 0.0
    for _ in range(m):
        new = table
        for r in range(len(distances)):
            new = _advance(new, k + r)
        for i, rules in enumerate(kinds):
            new = new + _place(table, i, rules, k, distances)
        top = float(new.max())
        table, scale = new / top, scale + float(np.log(top))
    counts = table.sum(axis=tuple(range(k, table.ndim)))
    grid = np.indices([n + 1 for n in most]).astype(np.float64)
    rest = m - grid.sum(axis=0)
    with np.errstate(divide="ignore"):
        log_n = np.log(counts) + scale
    log_all = log_multinomial(m, most)
    return np.where((counts > 0) & (rest >= 0), log_n - log_all, -np.inf)
