"""Benchmarks, measured in one run on one machine, reported as seconds and as ratios to a floor.

    python bench/run.py                 # everything (a few minutes on 2 cores)
    python bench/run.py --only pool     # one 1,000,000-share pool against its floors
    python bench/run.py --only layouts  # layout time of one pool of each game
    python bench/run.py --only orders   # whole orders of each game, with peak memory
    python bench/run.py --only orders --game primetime_payout   # one game's order
    python bench/run.py --quick         # the smallest pool of each game, as orders are run: a minute

Floors: numpy's non-cryptographic `permutation` of the same 1,000,000-element array, and writing
the same table with polars alone; for an order, polars writing every Parquet table of the run again
plus one SHA-256 pass over every file of the run, measured in the same run on the same files.
Printed games' orders are made and verified with both validation keys, as a print run is. Machines
are noisy: compare ratios from the same run, not seconds across runs; on a loaded machine the CPU
ratio (CPU seconds of generate + verify over the floor's) keeps its meaning better than wall-clock.
Nothing here is asserted; tests never time anything. Where one pool's seconds go: bench/phases.py.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
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


def bench_orders(tmp: Path, workers: int, games: tuple[str, ...] = GAMES, quick: bool = False) -> None:
    what = "pools (--quick: the smallest pool of each game)" if quick else "orders"
    print(f"Whole {what}, signed (printed games with both validation keys, as a print run is made), "
          "then verified with those keys, "
          f"{workers} worker(s), each command in a fresh process. Floor: polars writing every Parquet "
          "table of the run again + one SHA-256 pass over every file of the run, measured here on the "
          "same files. Peak = the largest single process (command or worker), ru_maxrss.")
    seed_file = tmp / "order.seed"
    fd = os.open(seed_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # generate refuses a readable seed
    with os.fdopen(fd, "w") as f:
        f.write(SEED.hex() + "\n")
    keys = tmp / "order-keys"
    _poolgen("keys", "new", str(keys))
    for tier in ("low", "high"):
        _poolgen("keys", "validation", "new", str(keys / f"{tier}.key"))
    validation = ["--validation-key", str(keys / "low.key"), "--high-validation-key", str(keys / "high.key")]
    print(f"  {'order':<21} {'tickets':>11} {'generate':>17} {'verify':>17} {'floor':>15} "
          f"{'ratio':>7} {'CPU ratio':>9} {'peak':>9}")
    for rules in games:
        spec = load_spec(SPECS / f"{rules}.toml")
        printed = spec.kind == "printed"
        smallest = min(spec.pools, key=lambda p: (p.tickets * (p.play_areas or 1), p.id))
        pools = [smallest] if quick else list(spec.pools)
        chosen = [arg for p in pools for arg in ("--pool", p.id)] if quick else []
        run = tmp / "orders" / rules
        gen = _measured("generate", str(SPECS / f"{rules}.toml"), "--out", str(tmp / "orders"),
                        "--seed-file", str(seed_file), "--run-id", rules, "--workers", str(workers),
                        "--key", str(keys / "signing-key.pem"), *chosen, *(validation if printed else []))
        ver = _measured("verify", str(run), "--public-key", str(keys / "signing-key.pub.pem"),
                        "--workers", str(workers), *(validation if printed else []))
        floor = _floor(run, tmp / "floor")
        total = gen.seconds + ver.seconds
        tickets = sum(p.tickets for p in pools)
        print(f"  {rules:<21} {tickets:>11,} {gen.seconds:7.2f} s ({gen.cpu:5.1f} CPU) "
              f"{ver.seconds:7.2f} s ({ver.cpu:5.1f} CPU) {floor.seconds:6.2f} s ({floor.cpu:4.1f}) "
              f"{total / floor.seconds:6.1f}x {(gen.cpu + ver.cpu) / floor.cpu:8.1f}x "
              f"{max(gen.peak_mib, ver.peak_mib):6,.0f} MiB", flush=True)
        shutil.rmtree(run)


@dataclass(frozen=True)
class Measured:
    seconds: float  # wall clock
    cpu: float  # user + system seconds of the process and every process it waited for
    peak_mib: float  # the largest single process's peak resident set


def _floor(run: Path, scratch: Path) -> Measured:
    """Polars writing every Parquet table of the run again (poolgen's settings), plus one SHA-256 pass
    over every file of the run: wall-clock and CPU seconds of this process (polars' threads too)."""
    scratch.mkdir(exist_ok=True)
    seconds = cpu = 0.0
    for path in sorted(run.glob("*.parquet")):
        table = pl.read_parquet(path)
        c, t = time.process_time(), time.perf_counter()
        table.write_parquet(scratch / path.name, compression="zstd", compression_level=1, statistics=False)
        seconds, cpu = seconds + time.perf_counter() - t, cpu + time.process_time() - c
        (scratch / path.name).unlink()
        del table
    c, t = time.process_time(), time.perf_counter()
    for path in sorted(run.iterdir()):
        with open(path, "rb") as f:
            hashlib.file_digest(f, "sha256")
    return Measured(seconds + time.perf_counter() - t, cpu + time.process_time() - c, 0.0)


# The commands run this checkout's poolgen, whatever the folder the benchmark is run from and whatever
# poolgen an environment has installed.
_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def _poolgen(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "poolgen", *args], check=True, env=_ENV, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def _measured(*args: str) -> Measured:
    """Wall-clock seconds, CPU seconds and peak RSS of one poolgen command.

    The figures come from GNU time, which forks the command from its own small process: a child
    forked from this (large) benchmark process would count this process's pages in its peak. Its
    peak (%M) is the largest of the command and the workers it waited for, not their sum."""
    gnu_time = Path("/usr/bin/time")
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        prefix = [str(gnu_time), "-f", "%M %U %S", "-o", rss.name] if gnu_time.exists() else []
        t = time.perf_counter()
        proc = subprocess.Popen([*prefix, sys.executable, "-m", "poolgen", *args], env=_ENV,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, err = proc.communicate()
        seconds = time.perf_counter() - t
        if proc.returncode != 0:
            raise SystemExit(f"poolgen {' '.join(args)} failed: {err.decode(errors='replace')[-2000:]}")
        if prefix:
            kib, user, system = rss.read().split()[-3:]
            return Measured(seconds, float(user) + float(system), int(kib) / 1024)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # without GNU time: every child so far (rough)
    return Measured(seconds, float("nan"), usage.ru_maxrss / 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("pool", "layouts", "orders"))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--game", choices=GAMES, action="append",
                        help="with --only orders: this game's order only (repeatable)")
    parser.add_argument("--quick", action="store_true",
                        help="orders only, and of each game only its smallest pool: about a minute")
    args = parser.parse_args()
    print(f"poolgen benchmarks on {os.cpu_count()} core(s), {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
          f"polars {pl.__version__}, numpy {np.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "pool") and not args.quick:
            bench_pool(Path(tmp))
        if args.only in (None, "layouts") and not args.quick:
            bench_layouts()
        if args.only in (None, "orders"):
            bench_orders(Path(tmp), args.workers, tuple(args.game or GAMES), args.quick)


if __name__ == "__main__":
    main()
