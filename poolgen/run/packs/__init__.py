"""Pack parameters at generation (docs/randomness.md, section 5): the tier order under composition
parameters (composition.py exact under winners bounds, capped.py exact under one cap, spaced.py exact
under one spacing rule, beside.py exact under a cap of one beside a second rule, caps.py exact under
several disjoint caps alone, several.py exact under several spacing rules alone where sparse, rejected.py
exact under other caps and spacing rules together where sparse, chain.py the Metropolis chain
otherwise) and the neighbour rule on layouts (neighbours.py)."""

from __future__ import annotations

import numpy as np

from poolgen.errors import SpecError
from poolgen.game.model import Game, Pool
from poolgen.rng import Stream, permutation
from poolgen.run.packs.beside import arrange_beside, exactly_beside
from poolgen.run.packs.capped import arrange_capped, exactly_capped
from poolgen.run.packs.caps import arrange_caps, exactly_caps
from poolgen.run.packs.chain import NoArrangement, mix, valid_start
from poolgen.run.packs.composition import Rules, arrange_winners, pack_size, rules_for
from poolgen.run.packs.neighbours import identical_pairs, separate_neighbours
from poolgen.run.packs.rejected import arrange_rejected, exactly_rejected
from poolgen.run.packs.rejected import exhausted as rejected_exhausted
from poolgen.run.packs.several import arrange_several, exactly_several, exhausted
from poolgen.run.packs.spaced import arrange_spaced, chain_orders, exactly_spaced

__all__ = ["RESTARTS", "NoArrangement", "Rules", "arrange", "chained", "descended", "identical_pairs",
           "pack_size", "refusal", "rules_for", "separate_neighbours", "start", "valid_start"]

RESTARTS = 3  # a descent that gives up starts again, from a new start, at most this often (randomness.md 5.3)


def start(stream: Stream, rules: Rules) -> np.ndarray:
    """The chain's start: the exact draw under the winners parameters, or the plain shuffle."""
    if rules.lo > 0 or rules.hi < rules.m:
        return arrange_winners(stream, rules, spaced=False).reshape(-1)
    base = np.repeat(np.arange(len(rules.counts), dtype=np.int16), rules.counts)
    shuffled: np.ndarray = base[permutation(stream, base.size)]
    return shuffled


def descended(stream: Stream, rules: Rules) -> np.ndarray:
    """The chain's valid start (docs/randomness.md 5.3, steps 1 and 2): the descent from `start`, and,
    when it gives up, from a new start drawn where it left the stream, at most RESTARTS times more
    (NoArrangement, the first descent's, when every one gives up: its packs and parameters, as before
    restarts). A first descent that ends reads the stream as it did before restarts."""
    first: NoArrangement | None = None
    for _ in range(RESTARTS + 1):
        try:
            return valid_start(stream, rules, start(stream, rules), RESTARTS + 1)
        except NoArrangement as exc:
            first = first or exc
    assert first is not None
    raise first


def arrange(stream: Stream, rules: Rules) -> np.ndarray:
    """The pool's tier indices in print order under its rules."""
    if rules.winners_only:
        return arrange_winners(stream, rules).reshape(-1)
    if exactly_capped(rules):
        return arrange_capped(stream, rules).reshape(-1)
    if exactly_spaced(rules):
        return arrange_spaced(stream, rules).reshape(-1)
    if exactly_beside(rules):
        return arrange_beside(stream, rules).reshape(-1)
    if exactly_caps(rules):
        return arrange_caps(stream, rules).reshape(-1)
    if exactly_several(rules):
        packs, _ = arrange_several(stream, rules)
        if packs is not None:
            return packs.reshape(-1)
        try:  # MAX_TRIES tries, none kept: the chain, from where the stream stands (5.12)
            return chained(stream, rules)
        except NoArrangement as exc:
            raise exhausted(rules, exc) from None
    if exactly_rejected(rules):
        packs, _ = arrange_rejected(stream, rules)
        if packs is not None:
            return packs.reshape(-1)
        try:  # MAX_TRIES tries, none kept: the chain, from where the stream stands (5.13, as 5.12)
            return chained(stream, rules)
        except NoArrangement as exc:
            raise rejected_exhausted(rules, exc) from None
    return chained(stream, rules)


def chained(stream: Stream, rules: Rules) -> np.ndarray:
    """The chain of 5.3: steps 1 to 4 (restarts included), the pool's tier indices in print order."""
    content = mix(stream, rules, descended(stream, rules)).reshape(rules.books, rules.m)
    return chain_orders(stream, rules, content).reshape(-1)


def refusal(game: Game, pool: Pool, exc: NoArrangement) -> SpecError:
    """The one line refusing a pool for which no arrangement meeting its pack (block) parameters was
    found, naming each parameter still broken as the spec writes it: what check and generate say."""
    table = "blocks" if game.packs.einstant else "packs"
    floor = "min_prize_times" if game.packs.block is not None else "min_prize_value"
    fields = ", ".join(f"{table}.{floor if name == 'min_prize_value' else name}" for name in exc.short)
    return SpecError(f"{game.file}: {fields}: pool {pool.id}: {exc}")
