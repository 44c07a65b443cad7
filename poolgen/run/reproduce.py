"""The generator that `poolgen verify --seed-file` hands to audit's step 7 (audit/steps/reproduction.py).

audit never imports poolgen; it receives `regenerate` as a parameter and compares what it writes
with the run folder byte for byte.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import poolgen
from poolgen.loader import load_spec
from poolgen.run.generate import make_pool, tool_versions


def regenerate(spec_path: Path, pool_ids: list[str], seed: bytes, folder: Path,
               book_key: bytes | None = None, without_neighbours: bool = False) -> dict[str, Any]:
    """Rebuild the pools into `folder` from the seed (and the book key, if the run's books are under
    one), one at a time, as `generate` built them; `without_neighbours`, an eInstant's without the
    neighbour rule, as runs were made before it was every eInstant's default (2026-12-02). Also the
    manifest's `play` entry the generator writes from the spec (a crossword's word list is the
    generator's, no spec's)."""
    game = load_spec(spec_path)
    if without_neighbours and game.packs.einstant:
        game = replace(game, packs=replace(game.packs, neighbours=None))
    return {"generator": f"poolgen {poolgen.__version__}", "versions": tool_versions(),
            "pools": {pid: make_pool(game, pid, seed, folder, None, book_key) for pid in pool_ids},
            "play": json.loads(json.dumps(game.play.document()))}  # as the manifest's JSON reads back
