"""`poolgen check` of the pack parameters of a split order (docs/new-game.md, section 2b, "Pack
parameters beside a split").

A pool of a split order holds each tier's share rounded down or, where the share is not whole, one
more, as the run's seed draws (docs/randomness.md 4b): any count vector V with F <= V <= C, F every
share rounded down, C every share that is not whole rounded up (the losers the rest). The parameters
are of two kinds. A minimum (min_winners, min_prize_value) is never broken by turning a loser of a
pack into a winner; an upper bound (max_winners, a cap, a spacing rule) is never broken by turning a
winner into a loser. So one arrangement covers every V:

- upper bounds alone: an arrangement of C meeting them (check/packs.py's proof for C); any V is it
  with C - V of its winners made losers;
- minimums (alone or beside upper bounds): an arrangement X of F meeting every parameter, found here,
  and one ticket of each tier that may round up placed on a loser of X without breaking an upper
  bound (`place_extras`, first fit in print order): for any V, X with the placed tickets of the tiers
  V rounds up meets the upper bounds (a subset of the placed arrangement's winners) and the minimums
  (every winner of X is there). A parameter that stops a placement is refused, named.

The arrangement of F is drawn from check's fixed public stream, as check/packs.py's: the exact draw
where one applies (docs/randomness.md 5.2, 5.6 to 5.10), else the chain's descent.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np

from poolgen.rng import derive_stream
from poolgen.rng.labels import stream_label
from poolgen.run.packs import NoArrangement, Rules, arrange, descended
from poolgen.run.packs.beside import exactly_beside
from poolgen.run.packs.capped import exactly_capped
from poolgen.run.packs.caps import exactly_caps
from poolgen.run.packs.rejected import exactly_rejected
from poolgen.run.packs.several import exactly_several
from poolgen.run.packs.spaced import chain_orders, exactly_spaced

__all__ = ["EVERY_VECTOR", "arrangement", "every_vector", "has_minimum", "place_extras"]

EVERY_VECTOR = 4  # at most this many tiers that may round up: each count vector proved on its own instead


def has_minimum(rules: Rules) -> bool:
    """Whether the rules hold a minimum (min_winners, min_prize_value), which F is the worst case of."""
    return rules.lo > 0 or rules.min_cents is not None


def arrangement(seed: bytes, game_id: str, pool_id: str, rules: Rules) -> np.ndarray:
    """A sequence of the pool's tier indices meeting every parameter, in print order, from check's public
    stream of the pool (NoArrangement if the chain's descent finds none)."""
    stream = derive_stream(seed, *stream_label(game_id, pool_id, "check"))
    if (rules.winners_only or exactly_capped(rules) or exactly_spaced(rules) or exactly_beside(rules)
            or exactly_caps(rules) or exactly_several(rules) or exactly_rejected(rules)):
        return arrange(stream, rules)
    found = descended(stream, rules)
    if not rules.spacing:
        return found
    ordered: np.ndarray = chain_orders(stream, rules, found.reshape(rules.books, rules.m)).reshape(-1)
    return ordered


def place_extras(rules: Rules, labels: np.ndarray, extras: list[int]) -> tuple[int, list[str]] | None:
    """Put one ticket of each tier index of `extras` on a loser of `labels` (an arrangement meeting every
    parameter; a copy is changed), the first place in print order where no upper bound breaks; the
    first tier index left no place and the parameters (as `rules` names them: max_winners, caps[i],
    spacing[i]) that took its places, or None when every one is placed."""
    m = rules.m
    packs = np.array(labels, dtype=np.int16).reshape(rules.books, m)
    for t in extras:
        free = packs == 0
        stops: list[str] = []
        if rules.hi < m:
            full = (packs > 0).sum(axis=1) >= rules.hi
            if (free & ~full[:, None]).sum() < free.sum():
                stops.append("max_winners")
            free &= ~full[:, None]
        for c, (tiers, most) in enumerate(rules.caps):
            if t in tiers:
                full = np.isin(packs, list(tiers)).sum(axis=1) >= most
                if (free & full[:, None]).any():
                    stops.append(f"caps[{c}]")
                free &= ~full[:, None]
        for s, (tiers, distance) in enumerate(rules.spacing):
            if t in tiers:
                near = np.zeros_like(free)
                inset = np.isin(packs, list(tiers))
                for k in range(1, min(distance, m)):
                    near[:, k:] |= inset[:, :-k]
                    near[:, :-k] |= inset[:, k:]
                if (free & near).any():
                    stops.append(f"spacing[{s}]")
                free &= ~near
        places = np.flatnonzero(free.reshape(-1))
        if not places.size:
            return t, stops or ["max_winners"]  # no loser at all: the loader refuses that first
        packs.reshape(-1)[int(places[0])] = t
    return None


def every_vector(seed: bytes, game_id: str, pool_id: str, low: Rules, extras: list[int]) -> bool:
    """Whether check finds an arrangement (`arrangement`, from its public stream) for every count vector
    but F the split may draw: each nonempty set of the tiers of `extras` rounded up, one ticket more of
    each and as many losers fewer (F's own is the caller's). The proof when `place_extras` finds no
    place: one arrangement per vector, 2^len(extras) - 1 of them."""
    for k in range(1, len(extras) + 1):
        for up in combinations(extras, k):
            counts = list(low.counts)
            for t in up:
                counts[t] += 1
            counts[0] -= k
            try:
                arrangement(seed, game_id, pool_id, replace(low, counts=tuple(counts)))
            except NoArrangement:
                return False
    return True
