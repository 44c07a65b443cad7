"""Size and time of a printed order's deliverables (docs/validation.md).

    python bench/deliverables.py                       # Happy Holidays: 6 pools, 1,800,000 tickets
    python bench/deliverables.py --game wild_side

Generates the whole order twice in a temporary folder, without and with validation keys (so the
difference is the validation files' cost), times imaging alone on one pool, and step 9 (verify's
deliverables step, both keys) on the run; prints every file's size and mode as created, under a
umask of 022. Wall-clock seconds, one run each; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.read.manifest import Manifest  # noqa: E402
from audit.steps.deliverables import check_deliverables  # noqa: E402
from poolgen.deliverables.write import write_imaging  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.build import build_pool  # noqa: E402
from poolgen.run.generate import GenerateRequest, generate  # noqa: E402

SEED = bytes(range(32))
NOW = datetime(2026, 12, 1, tzinfo=UTC)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="happy_holidays")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    spec = load_spec(ROOT / "specs" / f"{args.game}.toml")
    keys = (os.urandom(32), os.urandom(32))
    os.umask(0o022)
    with tempfile.TemporaryDirectory(prefix="bench-deliver-") as tmp:
        out = Path(tmp)
        t = time.perf_counter()
        generate(GenerateRequest(spec, SEED, now=NOW, out=out, run_id="plain", workers=args.workers))
        plain = time.perf_counter() - t
        t = time.perf_counter()
        run = generate(GenerateRequest(spec, SEED, now=NOW, out=out, run_id="keyed", workers=args.workers,
                                       validation_keys=keys)).folder
        keyed = time.perf_counter() - t
        pool = spec.pools[0]
        df = build_pool(spec, pool, SEED)
        (out / "one").mkdir()
        t = time.perf_counter()
        write_imaging(spec, pool, df, SEED, out / "one")
        imaging = time.perf_counter() - t
        manifest = Manifest.parse((run / "manifest.json").read_bytes())
        t = time.perf_counter()
        results = list(check_deliverables(run, manifest, {"low": keys[0], "high": keys[1]}, None))
        step9 = time.perf_counter() - t
        tickets = sum(p.tickets for p in spec.pools)
        print(f"{spec.name}: {len(spec.pools)} pools, {tickets:,} tickets, {args.workers} worker(s)")
        print(f"generate without validation keys: {plain:.1f} s; with: {keyed:.1f} s "
              f"(validation files: {keyed - plain:+.1f} s)")
        print(f"imaging file of one pool ({pool.tickets:,} tickets): {imaging:.1f} s")
        print(f"verify step 9 with both keys: {step9:.1f} s ({sum(s == 'pass' for s, _ in results)} checks "
              f"passed of {len(results)})")
        print(f"{'file':<24} {'bytes':>14} mode")
        by_class: dict[str, int] = {}
        for p in sorted(run.iterdir()):
            size = p.stat().st_size
            print(f"{p.name:<24} {size:>14,} {p.stat().st_mode & 0o777:o}")
            cls = p.name.split("-")[0] if p.name.endswith(".parquet") else p.name
            by_class[cls] = by_class.get(cls, 0) + size
        print(f"run folder mode {run.stat().st_mode & 0o777:o}; by class: "
              + ", ".join(f"{k} {v / 1e6:.1f} MB" for k, v in by_class.items()))


if __name__ == "__main__":
    main()
