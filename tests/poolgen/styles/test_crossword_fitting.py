"""The letter sets a ticket's YOUR LETTERS are drawn among once its rejection rounds miss
(docs/styles/crossword.md sections 7, 9, 10, 11): whichever way they are found (every row against every
set where the sets are few, a row by halves of the alphabet, spans pruned, where they are many), they are
exactly the sets that, tested word by word, complete lo..hi words in every span and the bonus word or
not, in `letter_sets` order, the order a layout's draw indexes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poolgen.styles.crossword.fill import SMALL, _fitting_rows, letter_sets


def _word_by_word(words: list[int], lo: list[int], hi: list[int], alphabet: int, shown: int,
                  bonus: tuple[int, bool] | None, spans: tuple[tuple[int, int], ...]) -> list[int]:
    """The fitting sets' indices, every word tested against every set."""
    sets = letter_sets(alphabet, shown)
    ok = np.ones(sets.size, dtype=bool)
    for k, (a, b) in enumerate(spans):
        done = sum(((sets & w) == 0).astype(np.int64) for w in words[a:b])
        ok &= (done >= lo[k]) & (done <= hi[k])
    if bonus is not None:
        ok &= ((sets & bonus[0]) == 0) == bonus[1]
    return np.flatnonzero(ok).tolist()


@st.composite
def _cases(draw: st.DrawFn) -> tuple:
    alphabet = draw(st.integers(1, 26))
    shown = draw(st.integers(max(0, alphabet - 6), alphabet))
    words = draw(st.lists(st.integers(1, (1 << alphabet) - 1), min_size=1, max_size=150))
    cuts = sorted(set(draw(st.lists(st.integers(1, len(words)), max_size=3))) - {len(words)})
    edges = [0, *cuts, len(words)]
    spans = tuple(zip(edges, edges[1:], strict=False))
    rows = []
    for _ in range(draw(st.integers(1, 3))):  # rows of one call: each its own counts and bonus word
        lo = [draw(st.integers(0, b - a)) for a, b in spans]
        hi = [draw(st.integers(low, b - a + 1)) for low, (a, b) in zip(lo, spans, strict=True)]
        rows.append((lo, hi, draw(st.integers(0, (1 << alphabet) - 1))))
    return alphabet, shown, words, spans, rows, draw(st.sampled_from([None, False, True]))


def _agrees(alphabet: int, shown: int, words: list[int], spans: tuple[tuple[int, int], ...],
            rows: list[tuple[list[int], list[int], int]], done: bool | None) -> None:
    masks = np.tile(np.array(words, dtype=np.int64), (len(rows), 1))
    lo = np.array([r[0] for r in rows], dtype=np.int64)
    hi = np.array([r[1] for r in rows], dtype=np.int64)
    bonus = (np.array([r[2] for r in rows], dtype=np.int64), done) if done is not None else None
    got = [v.tolist() for v in _fitting_rows(masks, lo, hi, alphabet, shown, bonus, spans)]
    assert got == [_word_by_word(words, r[0], r[1], alphabet, shown,
                                 (r[2], done) if done is not None else None, spans) for r in rows]


@settings(max_examples=80, deadline=None)
@given(_cases())
def test_the_sets_drawn_among_are_those_fitting_word_by_word(case):
    _agrees(*case)


@pytest.mark.parametrize("done", [None, False, True])
def test_many_sets_by_halves_fit_as_word_by_word(done):
    """26 letters less 20 shown: 230,230 sets, more than SMALL, so each row is found by halves and pruned
    spans (two chunks of 64 words); one span exact, one a range, one asking nothing."""
    assert letter_sets(26, 20).size > SMALL
    words = [(0b1011 << (i % 23)) | (1 << ((7 * i) % 26)) for i in range(70)]
    spans = ((0, 10), (10, 60), (60, 70))
    rows = [([3, 20, 0], [3, 35, 10], 0b1000000001), ([0, 0, 2], [1, 50, 4], 1 << 25)]
    _agrees(26, 20, words, spans, rows, done)
