"""bingo's acceptance step (poolgen/styles/bingo/style.py `weight_accept`, cells.py `acceptance`) against
section 7 of docs/styles/bingo.md as written: alpha = (1 / N_max) / (sum over the card's complete sets of
1 / N_i), summed as fractions, and one exact draw `big_integers(stream, alpha's denominator, 1)` per
proposed card with alpha < 1, card by card, accepted when below alpha's numerator. The same accepted
cards and the same bytes of the stream read, on real draws of Bingo Bonanza's line (twelve sets) and
a custom L of four overlapping sets."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.rng import big_integers, derive_stream, row_permutations
from poolgen.styles.bingo import cells
from poolgen.styles.bingo import style as bingo
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/bingo_bonanza.toml"
L_SETS = [[0, 5, 10, 15, 20, 21, 22, 23, 24], [0, 1, 2, 3, 4, 9, 14, 19, 24], [0, 1, 2, 3, 4, 5, 10, 15, 20],
          [4, 9, 14, 19, 20, 21, 22, 23, 24]]


def _l_params(tmp_path):  # type: ignore[no-untyped-def]
    numbers = [{"group": "num", "code": str(v), "symbol": str(v)} for v in range(1, 76)]
    numbers.append({"group": "num", "code": "FREE", "symbol": "FREE"})
    prizes = [{"group": "pz", "code": "1", "symbol": "$1", "value": "1.00"}]
    area = {"id": "bg", "style": "bingo", "cards": 1, "free": True, "calls": 40, "numbers": "num",
            "patterns": [{"name": "L", "cells": L_SETS, "prize": "1"}], "prizes": "pz"}
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "bg", "prize": "1", "how": "match"}]}]
    (tmp_path / "g.toml").write_text(dumps(base_doc([area], numbers + prizes, tiers, pool_tickets=100)))
    return load_spec(tmp_path / "g.toml").play.areas[0].params


def _as_written(stream, params, called, marked, p, ok):  # type: ignore[no-untyped-def]
    """Section 7's correction card by card, alpha summed as fractions."""
    sets = [tuple(s) for s in params.patterns[p].sets]
    out = ok.copy()
    for row in np.flatnonzero(ok).tolist():
        have = tuple(int(called[row, 1 + 15 * c:16 + 15 * c].sum()) for c in range(5))
        complete = [all(marked[row, k] for k in s) for s in sets]
        of_set = cells._profiles(tuple(sets), params.free)[1]
        counts = cells._card_counts(tuple(sets), params.free, have)
        n_i = [counts[of_set[i]] for i, c in enumerate(complete) if c]
        alpha = Fraction(1, max(counts)) / sum(Fraction(1, n) for n in n_i)
        if alpha < 1:
            out[row] = big_integers(stream, alpha.denominator, 1)[0] < alpha.numerator
    return out


@pytest.mark.parametrize("pattern", ["line", "L"])
def test_the_cards_accepted_and_the_words_read_are_section_7s_card_by_card(pattern, tmp_path):
    params = load_spec(EXAMPLE).play.areas[0].params if pattern == "line" else _l_params(tmp_path)
    rows = 3_000
    calls = derive_stream(SEED_A, "accept", pattern, "calls")
    order = row_permutations(calls, rows, 75)[:, :params.calls] + 1
    called = np.zeros((rows, 76), dtype=bool)  # every row its own calls: many distinct (have, held)
    np.put_along_axis(called, order, True, axis=1)
    card, ok = bingo.forced_cards(derive_stream(SEED_A, "accept", pattern, "cards"), params, called, 0)
    marked = bingo.marks(card, called)
    ok &= bingo.best(params, marked) == 0
    got_stream, want_stream = (derive_stream(SEED_A, "accept", pattern, "draws") for _ in range(2))
    got = bingo.weight_accept(got_stream, params, called, marked, 0, ok)
    want = _as_written(want_stream, params, called, marked, 0, ok)
    assert got.tolist() == want.tolist()
    assert 0 < int(got.sum()) < int(ok.sum())  # some proposals refused, some kept
    assert got_stream.bytes_read == want_stream.bytes_read > 8 * 100
    assert got_stream.words(2).tolist() == want_stream.words(2).tolist()


def test_no_card_proposed_reads_nothing(tmp_path):
    params = _l_params(tmp_path)
    stream = derive_stream(SEED_A, "accept", "none")
    called = np.zeros((5, 76), dtype=bool)
    none = np.zeros(5, dtype=bool)
    out = bingo.weight_accept(stream, params, called, np.zeros((5, 25), dtype=bool), 0, none)
    assert out.tolist() == [False] * 5 and stream.bytes_read == 0
