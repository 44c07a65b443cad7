"""Step 8 on one run folder, timed as the checkout on PYTHONPATH does it (issue 28's before/after).

    PYTHONPATH=<checkout> python bench/stats_pair.py RUN_FOLDER LABEL

Prints check_statistics' serial time and, where the checkout has them (since issue 28), the pools'
parts from tables already read (as the verify workers make them) and their combination. Run it
alternately with an older checkout's PYTHONPATH on the same folder (e.g. a full order made by
`poolgen generate`) for a paired comparison on a loaded machine.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import polars as pl

from audit.read.manifest import Manifest
from audit.stats import step


def main() -> None:
    run = Path(sys.argv[1])
    m = Manifest.parse((run / "manifest.json").read_bytes())
    t = time.perf_counter()
    step.check_statistics(run, m)
    serial = time.perf_counter() - t
    extra = ""
    if hasattr(step, "one_pool"):
        tables = [(p, pl.read_parquet(run / p.file)) for p in m.pools]
        t = time.perf_counter()
        res = [(p, step.one_pool(run, m, p, tb)) for p, tb in tables]
        parts = time.perf_counter() - t
        t = time.perf_counter()
        step.statistics_lines(res, len(m.pools))
        comb = time.perf_counter() - t
        extra = (f"; pool parts from tables already read {parts:.2f} s (sum over {len(m.pools)}), "
                 f"combining {comb:.3f} s")
    print(f"{sys.argv[2]}: check_statistics serial {serial:.2f} s{extra}", flush=True)


if __name__ == "__main__":
    main()
