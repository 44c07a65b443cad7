"""What step 8 (statistics) adds to verifying a 1,000,000-share pool.

    python bench/stats_step.py                         # Primetime Payout d1.00x1 and d7.50x4
    python bench/stats_step.py --game hand_to_hand_tactics --pool d1.00

Generates each pool once (signed) in a temporary folder, then times, best of 3 wall-clock runs:
the whole checklist (`audit.verify.verify_run`, one worker) and step 8 alone
(`audit.stats.check_statistics`), and prints the share step 8 takes. Nothing is asserted.
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="primetime_payout")
    ap.add_argument("--pool", action="append", help="pool id (repeatable); default d1.00x1 and d7.50x4")
    args = ap.parse_args()
    pools = args.pool or ["d1.00x1", "d7.50x4"]
    spec = load_spec(ROOT / "specs" / f"{args.game}.toml")
    with tempfile.TemporaryDirectory() as tmp:
        keys = new_key_pair(Path(tmp) / "keys")
        signer = Signer.from_file(keys.private)
        for pid in pools:
            run = generate(GenerateRequest(spec, SEED, now=datetime(2026, 1, 2, tzinfo=UTC),
                                           out=Path(tmp) / "runs", run_id=pid, pool_ids=[pid],
                                           signature=signer.manifest_entry()), finish=signer.sign_run).folder
            manifest = Manifest.parse((run / "manifest.json").read_bytes())
            whole = timed(lambda run=run: verify_run(VerifyRequest(run=run, public_key=keys.public,
                                                                  workers=1)))
            step8 = timed(lambda run=run, m=manifest: check_statistics(run, m))
            n = manifest.pools[0].tickets
            print(f"{args.game} {pid} ({n:,} shares, {len(manifest.pools[0].columns)} columns): "
                  f"verify {whole:.2f} s, of which step 8 {step8:.2f} s ({100 * step8 / whole:.0f}%; "
                  f"steps 1-6 {whole - step8:.2f} s)", flush=True)


if __name__ == "__main__":
    main()
