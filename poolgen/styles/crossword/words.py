"""The crossword word list (words.txt beside this module: its header names the source, the licence and
the offensive-word filter) and the lookup tables the generator draws words from
(docs/styles/crossword.md, section 7)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

__all__ = ["LIST", "Lexicon", "lexicon", "listed_words"]

LIST = Path(__file__).with_name("words.txt")


@cache
def listed_words() -> tuple[str, ...]:
    """Every word of the vendored list, upper-case, in the list's order."""
    lines = LIST.read_text(encoding="utf-8").splitlines()
    return tuple(w for w in (x.strip() for x in lines) if w and not w.startswith("#"))


@dataclass(frozen=True)
class Lexicon:
    """The listed words spelt in one alphabet, as codes, with a bucket per (length, position, letter):
    `start[key]`, `size[key]` into `ids`; key `root(length)` holds every word of that length."""

    words: tuple[str, ...]  # those spelt in the alphabet, in list order
    letters: np.ndarray  # (W, 6) int64 alphabet codes, -1 past a word's end
    masks: np.ndarray  # (W,) int64: bit c set when the word holds letter c
    ids: np.ndarray  # word ids grouped by bucket
    start: np.ndarray
    size: np.ndarray
    alphabet: int

    @property
    def lengths(self) -> frozenset[int]:
        return frozenset(len(w) for w in self.words)

    def root(self, length: int) -> int:
        return length * (1 + 6 * self.alphabet)

    def key(self, length: int, position: int, letter: np.ndarray) -> np.ndarray:
        return self.root(length) + 1 + position * self.alphabet + letter


@cache
def lexicon(alphabet: str) -> Lexicon:
    """The list's words spelt in `alphabet` (a string of distinct capital letters) and their buckets."""
    code = {ch: i for i, ch in enumerate(alphabet)}
    words = tuple(w for w in listed_words() if all(ch in code for ch in w))
    a = len(alphabet)
    letters = np.full((len(words), 6), -1, dtype=np.int64)
    for i, w in enumerate(words):
        letters[i, :len(w)] = [code[ch] for ch in w]
    masks = np.zeros(len(words), dtype=np.int64)
    for p in range(6):
        have = letters[:, p] >= 0
        masks[have] |= np.left_shift(1, letters[have, p])
    lengths = (letters >= 0).sum(axis=1)
    keys = 7 * (1 + 6 * a)
    members: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * keys
    for n in range(1, 7):
        of_n = np.flatnonzero(lengths == n)
        root = n * (1 + 6 * a)
        members[root] = of_n
        for p in range(n):
            for c in range(a):
                members[root + 1 + p * a + c] = of_n[letters[of_n, p] == c]
    size = np.array([m.size for m in members], dtype=np.int64)
    start = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
    ids = np.concatenate(members).astype(np.int64)
    return Lexicon(words, letters, masks, ids, start, size, a)
