"""Randomness: `drbg` emits bytes from a seed; `sampling` turns them into unbiased choices.

Neither module knows about lottery games.
"""

from poolgen.rng.drbg import ALGORITHM, Stream, derive_stream
from poolgen.rng.sampling import (
    Weights,
    big_integers,
    big_integers_each,
    integers,
    integers_by_key,
    permutation,
    row_permutations,
    weighted_choices,
)

__all__ = ["ALGORITHM", "Stream", "Weights", "big_integers", "big_integers_each", "derive_stream", "integers",
           "integers_by_key", "permutation", "row_permutations", "weighted_choices"]
