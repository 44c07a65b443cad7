"""What step 8 (statistics) adds to verifying a 1,000,000-share pool, and a full order.

    python bench/stats_step.py                         # Primetime Payout d1.00x1 and d7.50x4
    python bench/stats_step.py --game hand_to_hand_tactics --pool d1.00
    python bench/stats_step.py --order --workers 2     # every pool of the game (Primetime: 16)

Generates each pool (or the order) once (signed) in a temporary folder, then times, best of
`--repeat` wall-clock runs: the whole checklist (`audit.verify.verify_run`, `--workers` processes;
step 8's per-pool part runs in them since issue 28) and step 8 alone, serially, reading its columns
(`audit.stats.step.check_statistics`), and prints the share. Nothing is asserted. The same script
runs against an older checkout (copy it into that checkout's bench/ and run it there).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.read.manifest import Manifest  # noqa: E402
from audit.stats.step import check_statistics  # noqa: E402
from audit.verify import VerifyRequest, verify_run  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.generate import GenerateRequest, generate  # noqa: E402
from poolgen.run.signing import Signer, new_key_pair  # noqa: E402

SEED = bytes(range(32))


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def parts(run: Path, manifest: Manifest, repeat: int) -> str:
    """Since issue 28: what each pool's part adds in the verify worker that has read the pool for
    steps 2 to 6 (summed over the pools), and the run-level tests made from them in the main process."""
    try:
        from audit.stats import step
        one_pool, statistics_lines = step.one_pool, step.statistics_lines  # absent before issue 28
    except AttributeError:
        return ""
    import polars as pl
    tables = [(p, pl.read_parquet(run / p.file)) for p in manifest.pools]
    results: list = []
    in_workers = timed(lambda: results.__setitem__(slice(None), [(p, one_pool(run, manifest, p, t))
                                                                  for p, t in tables]), repeat)
    combined = timed(lambda: statistics_lines(results, len(manifest.pools)), repeat)
    return (f"; in the workers {in_workers:.2f} s of pool parts (from the tables steps 2-6 read), "
            f"then {combined:.3f} s combining them")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="primetime_payout")
    ap.add_argument("--pool", action="append", help="pool id (repeatable); default d1.00x1 and d7.50x4")
    ap.add_argument("--order", action="store_true", help="one run of every pool of the game")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    spec = load_spec(ROOT / "specs" / f"{args.game}.toml")
    runs = ([None] if args.order else args.pool or ["d1.00x1", "d7.50x4"])
    with tempfile.TemporaryDirectory() as tmp:
        keys = new_key_pair(Path(tmp) / "keys")
        signer = Signer.from_file(keys.private)
        for pid in runs:
            start = time.perf_counter()
            run = generate(GenerateRequest(spec, SEED, now=datetime(2026, 1, 2, tzinfo=UTC),
                                           out=Path(tmp) / "runs", run_id=pid or "order",
                                           pool_ids=[pid] if pid else None, workers=args.workers,
                                           signature=signer.manifest_entry()), finish=signer.sign_run).folder
            made = time.perf_counter() - start
            manifest = Manifest.parse((run / "manifest.json").read_bytes())
            whole = timed(lambda run=run: verify_run(VerifyRequest(run=run, public_key=keys.public,
                                                                  workers=args.workers)), args.repeat)
            step8 = timed(lambda run=run, m=manifest: check_statistics(run, m), args.repeat)
            n = sum(p.tickets for p in manifest.pools)
            what = pid or f"order of {len(manifest.pools)} pools"
            print(f"{args.game} {what} ({n:,} shares, {len(manifest.pools[0].columns)} columns; generated in "
                  f"{made:.1f} s): verify ({args.workers} worker(s)) {whole:.2f} s; step 8 alone, serial "
                  f"{step8:.2f} s{parts(run, manifest, args.repeat)}", flush=True)


if __name__ == "__main__":
    main()
