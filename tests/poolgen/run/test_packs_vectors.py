"""The pack-parameter draws give the known answers of tests/vectors/packs.txt (made by
tests/vectors/make_packs_vectors.py, whose `lines()` this recomputes)."""

from __future__ import annotations

from make_packs_vectors import lines

from tests.support import vector_lines


def test_the_pack_draws_give_their_known_answers():
    assert lines() == vector_lines("packs.txt")
