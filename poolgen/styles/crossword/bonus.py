"""A crossword area's BONUS WORD (docs/styles/crossword.md, section 9): a listed word of a set length,
printed beside the grids, completed when YOUR LETTERS hold all its letters, winning its own prize in
addition to the legend's. Drawn with the grids, uniformly among the listed words of its length, the same
way whatever the ticket's tier; YOUR LETTERS then complete it or not, as the tier says."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from poolgen.game.model import Symbol
from poolgen.rng import Stream, integers
from poolgen.styles.crossword.words import Lexicon

__all__ = ["Bonus", "candidates", "pick"]


@dataclass(frozen=True)
class Bonus:
    length: int  # its number of letters (play spots)
    prize: Symbol  # the prize it wins, one of the area's `prizes`


def candidates(lex: Lexicon, length: int) -> np.ndarray:
    """The listed words of `length` letters (ids into lex.words), in list order."""
    root = lex.root(length)
    ids: np.ndarray = lex.ids[lex.start[root]:lex.start[root] + lex.size[root]]
    return ids


def pick(lex: Lexicon, length: int, m: int, stream: Stream) -> np.ndarray:
    """m bonus words (ids into lex.words), each uniform among the listed words of `length` letters in
    list order (`integers`, one per row)."""
    ids = candidates(lex, length)
    chosen: np.ndarray = ids[integers(stream, ids.size, size=m)]
    return chosen
