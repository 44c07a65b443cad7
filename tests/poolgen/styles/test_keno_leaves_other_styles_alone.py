"""Adding the keno style (docs/styles/keno.md) changed no other style's pools: 6,000-ticket pools of two
examples built from a fixed seed hash (their table as CSV) to the SHA-256s the code before keno made
(commit bccd94dc), byte for byte: the closest styles to keno, key_number_match (WINNING NUMBERS) and
yours_beats_theirs (a row of games)."""

from __future__ import annotations

import hashlib

import pytest

from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_example

PINNED = {"money_bag_match": "719d47f558e0c8ae640b20bda4ed0086c20bb0e0d45c7a8a320146763d099f03",
          "high_card_duel": "2d235eee37124a17ef37f4b20449995ba38bd3c2b81505023657406a6dae613e"}


@pytest.mark.parametrize("example", PINNED)
def test_pools_of_examples_without_keno_are_byte_for_byte_those_before_it(tmp_path, example):
    spec = load_spec(small_example(tmp_path, example, 6000))
    table = build_pool(spec, spec.pools[0], hashlib.sha256(b"keno12").digest())
    assert hashlib.sha256(table.write_csv().encode()).hexdigest() == PINNED[example]
