"""A crossword area's BONUS WORD (docs/styles/crossword.md, section 9): a listed word of a set length,
printed beside the grids, completed when YOUR LETTERS hold all its letters, winning its own prize in
addition to the legend's. Drawn after YOUR LETTERS, uniformly among the listed words of its length that
are (or are not) completed by them, as the ticket's tier says."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from poolgen.game.model import Symbol
from poolgen.rng import Stream, integers
from poolgen.styles.crossword.words import Lexicon

__all__ = ["CHUNK", "Bonus", "candidates", "draw", "qualify"]

CHUNK = 1024  # rows whose candidate words are tested at once (a row x word table of booleans)


@dataclass(frozen=True)
class Bonus:
    length: int  # its number of letters (play spots)
    prize: Symbol  # the prize it wins, one of the area's `prizes`


def candidates(lex: Lexicon, length: int) -> np.ndarray:
    """The listed words of `length` letters (ids into lex.words), in list order."""
    root = lex.root(length)
    return lex.ids[lex.start[root]:lex.start[root] + lex.size[root]]


def qualify(masks: np.ndarray, left_out: np.ndarray, completed: bool) -> np.ndarray:
    """(rows, words): whether each word (its letter mask) is completed (`completed`) or not by the
    letters a row shows, given as the mask of those it leaves out."""
    done: np.ndarray = (masks[None, :] & left_out[:, None]) == 0
    return done if completed else ~done


def draw(lex: Lexicon, length: int, shown: np.ndarray, completed: bool,
         stream: Stream) -> tuple[np.ndarray, np.ndarray]:
    """(ok, word ids): per row of YOUR LETTERS (`shown`, alphabet codes), a bonus word drawn uniformly
    among the listed words of `length` letters that its letters complete (`completed`) or leave
    incomplete (one `integers` per row, all rows at once); ok False where no word qualifies."""
    ids = candidates(lex, length)
    masks = lex.masks[ids]
    held = np.bitwise_or.reduce(np.left_shift(1, shown), axis=1) if shown.size else np.zeros(0, np.int64)
    left_out = ((1 << lex.alphabet) - 1) & ~held
    count = np.zeros(shown.shape[0], dtype=np.int64)
    for first in range(0, shown.shape[0], CHUNK):
        count[first:first + CHUNK] = qualify(masks, left_out[first:first + CHUNK], completed).sum(axis=1)
    pick = integers(stream, np.maximum(count, 1))
    out = np.zeros(shown.shape[0], dtype=np.int64)
    for first in range(0, shown.shape[0], CHUNK):
        ranks = np.cumsum(qualify(masks, left_out[first:first + CHUNK], completed), axis=1)
        at = np.argmax(ranks > pick[first:first + CHUNK, None], axis=1)
        out[first:first + CHUNK] = ids[at]
    return count > 0, out
