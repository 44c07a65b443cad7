"""Benchmarks, measured in one run on one machine, reported as seconds and as ratios to a floor.

    python bench/run.py                 # everything (a few minutes on 2 cores)
    python bench/run.py --only pool     # one 1,000,000-share pool against its floors
    python bench/run.py --only layouts  # layout time of one pool of each game
    python bench/run.py --only orders   # whole orders of each game, with peak memory
    python bench/run.py --only orders --game primetime_payout   # one game's order

Floors: numpy's non-cryptographic `permutation` of the same 1,000,000-element array, and writing
the same table with polars alone. Machines are noisy: compare ratios from the same run, not seconds
across runs. Nothing here is asserted; tests never time anything.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.verify import VerifyRequest, verify_run  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.rng import derive_stream  # noqa: E402
from poolgen.rng.labels import stream_label  # noqa: E402
from poolgen.run.build import build_pool, shuffled_tiers, tier_base  # noqa: E402
from poolgen.run.generate import GenerateRequest, generate  # noqa: E402
from poolgen.run.signing import Signer, new_key_pair  # noqa: E402

SEED = bytes(range(32))
SPECS = ROOT / "specs"
GAMES = ("hand_to_hand_tactics", "primetime_payout", "happy_holidays", "wild_side")


def timed(fn, repeat: int = 3) -> float:
    """Best of `repeat` wall-clock runs."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def row(label: str, seconds: float, floor: float | None = None, floor_name: str = "") -> None:
    ratio = f"{seconds / floor:8.2f}x {floor_name}" if floor else ""
    print(f"  {label:<58} {seconds:8.3f} s  {ratio}", flush=True)


def bench_pool(tmp: Path) -> None:
    spec = load_spec(SPECS / "hand_to_hand_tactics.toml")
    pool = spec.pool("d1.00")
    print(f"One 1,000,000-share pool ({spec.name}, {pool.id})")
    base = tier_base(pool)
    rng = np.random.default_rng(0)  # the floor only: never used for outcomes
    floor_perm = timed(lambda: rng.permutation(base))
    table = build_pool(spec, pool, SEED)
    path = tmp / "floor.parquet"
    floor_write = timed(lambda: table.write_parquet(path, compression="zstd", compression_level=1,
                                                    statistics=False))  # the settings poolgen uses
    row("floor: numpy permutation (non-cryptographic)", floor_perm)
    row("floor: polars write_parquet of the same table", floor_write)
    row("shuffle: DRBG keys + exact uniform permutation", timed(lambda: shuffled_tiers(spec, pool, SEED)),
        floor_perm, "numpy permutation")
    row("build: shuffle + identity + layouts (in memory)", timed(lambda: build_pool(spec, pool, SEED)),
        floor_write, "polars write")
    n = iter(range(100))
    now = datetime(2026, 1, 1, tzinfo=UTC)
    signer = Signer.from_file(new_key_pair(tmp / "keys").private)
    end_to_end = timed(lambda: generate(GenerateRequest(spec, SEED, now=now, out=tmp, run_id=f"p{next(n)}",
                                                        pool_ids=[pool.id],
                                                        signature=signer.manifest_entry()),
                                        finish=signer.sign_run))
    row("end to end: generate one pool (Parquet, Merkle, manifest, signature)", end_to_end, floor_write,
        "polars write")
    run, public = tmp / "p0", tmp / "keys" / "signing-key.pub.pem"
    verify = timed(lambda: verify_run(VerifyRequest(run=run, public_key=public)), repeat=1)
    row("verify: audit steps 1-6 on that run", verify, floor_write, "polars write")
    print(f"  verify / generate: {verify / end_to_end:.2f}")


def bench_layouts() -> None:
    print("Layout time of one full pool of each game (vectorised numpy)")
    for rules, pool_id in (("hand_to_hand_tactics", "d1.00"), ("primetime_payout", "d7.50x4"),
                           ("primetime_payout", "d1.00x1"), ("happy_holidays", "p1"),
                           ("wild_side", "p1")):
        spec = load_spec(SPECS / f"{rules}.toml")
        pool = spec.pool(pool_id)
        tiers = shuffled_tiers(spec, pool, SEED)

        def run(spec=spec, pool=pool, tiers=tiers):
            stream = derive_stream(SEED, *stream_label(spec.id, pool.id, "layout"))
            spec.play.lay_out(spec, pool, tiers, stream)

        row(f"{rules} {pool_id} ({pool.tickets:,} tickets)", timed(run, repeat=1))


def bench_orders(tmp: Path, workers: int, games: tuple[str, ...] = GAMES) -> None:
    print(f"Whole orders, signed, then verified (steps 1-6), {workers} worker(s), each command in a fresh "
          "process (peak RSS = largest single process)")
    seed_file = tmp / "order.seed"
    seed_file.write_text(SEED.hex() + "\n")
    seed_file.chmod(0o600)  # a seed file others may read is refused
    keys = tmp / "order-keys"
    _poolgen("keys", "new", str(keys))
    for rules in games:
        tickets = sum(p.tickets for p in load_spec(SPECS / f"{rules}.toml").pools)
        gen, gen_rss = _measured("generate", str(SPECS / f"{rules}.toml"), "--out", str(tmp / "orders"),
                                 "--seed-file", str(seed_file), "--run-id", rules, "--workers", str(workers),
                                 "--key", str(keys / "signing-key.pem"))
        ver, ver_rss = _measured("verify", str(tmp / "orders" / rules), "--public-key",
                                 str(keys / "signing-key.pub.pem"), "--workers", str(workers))
        print(f"  {rules:<22} {tickets:>11,} tickets  generate {gen:7.2f} s ({gen_rss:,.0f} MiB)  "
              f"verify {ver:7.2f} s ({ver_rss:,.0f} MiB)  total {gen + ver:7.2f} s", flush=True)


def _poolgen(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "poolgen", *args], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def _measured(*args: str) -> tuple[float, float]:
    """Wall-clock seconds and peak RSS (MiB, the largest process) of one poolgen command.

    The peak comes from GNU time, which forks the command from its own small process: a child
    forked from this (large) benchmark process would count this process's pages in its peak."""
    gnu_time = Path("/usr/bin/time")
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        prefix = [str(gnu_time), "-f", "%M", "-o", rss.name] if gnu_time.exists() else []
        t = time.perf_counter()
        proc = subprocess.Popen([*prefix, sys.executable, "-m", "poolgen", *args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"poolgen {' '.join(args)} failed")
        kib = int(rss.read().split()[-1]) if prefix else usage.ru_maxrss
    return seconds, kib / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("pool", "layouts", "orders"))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--game", choices=GAMES, action="append",
                        help="with --only orders: this game's order only (repeatable)")
    args = parser.parse_args()
    print(f"poolgen benchmarks on {os.cpu_count()} core(s), {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
          f"polars {pl.__version__}, numpy {np.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "pool"):
            bench_pool(Path(tmp))
        if args.only in (None, "layouts"):
            bench_layouts()
        if args.only in (None, "orders"):
            bench_orders(Path(tmp), args.workers, tuple(args.game or GAMES))


if __name__ == "__main__":
    main()
