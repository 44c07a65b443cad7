"""The labels of the DRBG streams a run derives from its seed (docs/randomness.md): one stream per
game, pool and purpose, each label length-prefixed by `poolgen.rng.drbg.encode_label`."""

from __future__ import annotations

LABEL_ROOT = "poolgen/v1"


def stream_label(rules: str, pool_id: str, purpose: str) -> tuple[str, ...]:
    """The label of one pool's stream for one purpose ("order", "layout", ...)."""
    return (LABEL_ROOT, rules, pool_id, purpose)
