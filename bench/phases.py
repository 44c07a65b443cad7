"""Where one pool's seconds go, phase by phase, generate and verify, in one process.

    python bench/phases.py                                   # Happy Holidays p1, both validation keys
    python bench/phases.py --game wild_side --pool p1
    python bench/phases.py --game primetime_payout --pool d7.50x4
    python bench/phases.py --repeat 2                        # each phase twice, the best kept

Each phase runs alone, one after the other (generate overlaps some of them on threads; here they are
serial so each is measured by itself). Printed: CPU seconds of the whole process (every thread: polars
and numpy use several) and wall-clock seconds. CPU seconds keep their proportions on a loaded machine;
wall-clock seconds do not. The floor is polars writing the pool's table (and a printed pool's imaging
table) again, plus one SHA-256 pass over every file the pool's phases wrote. Last, the start-up of
each kind of process an order starts (a fresh interpreter's imports), paid once per process, not per
pool. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import scipy.special  # noqa: F401 - loaded by step 8's first test: here, so that step 8's figure is the step alone

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.read.manifest import Manifest  # noqa: E402
from audit.stats.step import check_statistics  # noqa: E402
from audit.steps.deliverables import check_deliverable_files, check_deliverables  # noqa: E402
from audit.steps.figures import check_figures  # noqa: E402
from audit.steps.files import check_file  # noqa: E402
from audit.steps.identity import check_complete  # noqa: E402
from audit.steps.layouts import check_layouts  # noqa: E402
from audit.steps.merkle_roots import check_merkle  # noqa: E402
from poolgen.deliverables.write import (  # noqa: E402
    ValidationJob,
    free_ticket_tiers,
    imaging_name,
    write_imaging,
    write_run_files,
)
from poolgen.game.model import Printed  # noqa: E402
from poolgen.loader import load_spec  # noqa: E402
from poolgen.run.build import build_pool  # noqa: E402
from poolgen.run.generate import GenerateRequest, generate, self_check  # noqa: E402
from poolgen.run.merkle import root as merkle_root  # noqa: E402

SEED = bytes(range(32))
WRITE = {"compression": "zstd", "compression_level": 1, "statistics": False}


class Phases:
    def __init__(self, repeat: int) -> None:
        self.repeat = repeat
        self.rows: list[tuple[str, str, float, float]] = []

    def __call__(self, side: str, name: str, fn: Callable[[], Any]) -> Any:
        best_cpu = best_wall = float("inf")
        for _ in range(self.repeat):
            c, w = _cpu(), time.perf_counter()
            out = fn()
            best_cpu = min(best_cpu, _cpu() - c)
            best_wall = min(best_wall, time.perf_counter() - w)
        self.rows.append((side, name, best_cpu, best_wall))
        return out

    def report(self, floor: tuple[float, float]) -> None:
        for side in ("floor", "generate", "verify", "start-up"):
            rows = [r for r in self.rows if r[0] == side]
            cpu, wall = sum(r[2] for r in rows), sum(r[3] for r in rows)
            if side == "start-up":
                print("start-up, once per process (a fresh interpreter importing what it needs; not in the "
                      "figures above):")
            else:
                print(f"{side}: {cpu:.2f} s CPU, {wall:.2f} s wall"
                      + (f"  ({cpu / floor[0]:.1f}x the floor's CPU)" if side != "floor" else ""))
            for _, name, c, w in sorted(rows, key=lambda r: -r[2]):
                print(f"  {name:<52} {c:7.3f} s CPU {w:7.3f} s wall {100 * c / cpu if cpu else 0:5.1f}%")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="happy_holidays")
    ap.add_argument("--pool", default=None, help="the pool (default: the game's first)")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    game = load_spec(ROOT / "specs" / f"{args.game}.toml")
    pool = game.pool(args.pool) if args.pool else game.pools[0]
    printed = isinstance(game.sales, Printed)
    keys = (os.urandom(32), os.urandom(32))
    t = Phases(args.repeat)
    print(f"{game.name}, pool {pool.id} ({pool.tickets:,} tickets), "
          f"{'with both validation keys' if printed else 'an eInstant'}; {os.cpu_count()} core(s), "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-phases-") as tmp:
        out = Path(tmp)
        # The generate side, phase by phase, as make_pool and generate do them.
        df = t("generate", "build_pool (shuffle, identities, salts, layouts)",
               lambda: build_pool(game, pool, SEED))
        t("generate", "self_check (audit's engines)", lambda: self_check(game, pool, df))
        t("generate", "merkle root", lambda: merkle_root(df))
        scratch = out / "scratch"
        scratch.mkdir()
        t("generate", "pool file write", lambda: df.write_parquet(scratch / "pool.parquet", **WRITE))
        job = ValidationJob(keys, "r", getattr(game.sales, "high_tier_cents", 0),
                            tuple(free_ticket_tiers(game)))
        if printed:  # in the pool's worker: the imaging file, and the pool's validation records
            parts = t("generate", "imaging file + the pool's validation records",
                      lambda: write_imaging(game, pool, df, SEED, _fresh(None, out), job))
        # The whole run (one pool) once, for the validation files and the manifest, then those alone.
        run = generate(GenerateRequest(game, SEED, now=_now(), out=out, run_id="r", pool_ids=[pool.id],
                                       validation_keys=keys if printed else None)).folder
        if printed:
            t("generate", "pack list + validation files (both keys), merged",
              lambda: write_run_files(game, _fresh(None, out), "r", [pool.id], {pool.id: parts}, keys))
        files = [p for p in run.iterdir() if p.is_file()]
        # The floor: polars writing the run's tables again, one SHA-256 pass over every file.
        table = pl.read_parquet(run / f"pool-{pool.id}.parquet")
        t("floor", "polars write of the pool table",
          lambda: table.write_parquet(scratch / "floor.parquet", **WRITE))
        if printed:
            im = pl.read_parquet(run / imaging_name(pool.id))
            t("floor", "polars write of the imaging table",
              lambda: im.write_parquet(scratch / "floor-im.parquet", **WRITE))
        t("floor", "SHA-256 of every file of the run",
          lambda: [hashlib.sha256(p.read_bytes()).digest() for p in files])
        # The verify side, step by step.
        manifest = Manifest.parse((run / "manifest.json").read_bytes())
        entry = manifest.pools[0]
        number, play = manifest.doc["game"].get("number"), manifest.doc.get("play")
        t("verify", "step 2: pool file hash", lambda: check_file(run, entry))
        if printed:
            t("verify", "step 2: deliverable files' hashes", lambda: check_deliverable_files(run, manifest))
        table = t("verify", "read the pool file", lambda: pl.read_parquet(run / entry.file))
        t("verify", "step 3: completeness", lambda: check_complete(table, entry, manifest.kind,
                                                                  manifest.tickets_per_book, number))
        t("verify", "step 4: layouts", lambda: check_layouts(table, entry, manifest.rules, play))
        t("verify", "step 5: figures", lambda: check_figures(table, entry))
        t("verify", "step 6: merkle root", lambda: check_merkle(table, entry))
        t("verify", "step 8: statistics", lambda: check_statistics(run, manifest))
        if printed:
            both = {"low": keys[0], "high": keys[1]}
            t("verify", "step 9: deliverables (both keys)",
              lambda: list(check_deliverables(run, manifest, both, None)))
        floor = sum(r[2] for r in t.rows if r[0] == "floor"), sum(r[3] for r in t.rows if r[0] == "floor")
        for what, modules in STARTUP:
            t("start-up", what, lambda modules=modules: _imported(modules))
        t.report(floor)


# What each process of an order imports before its first pool: a `poolgen generate` command (the CLI,
# then what the command imports when it runs: docs/scaling.md, "The command line's own start-up"), a
# generate worker (it unpickles poolgen.run.generate._worker) and a verify worker
# (audit.verify._pool_job; step 8 loads scipy.special). An order of 2 workers starts 2 commands and 2
# workers (each command is one of its `--workers`: poolgen/run/generate.py, audit/verify.py).
STARTUP = (("a poolgen generate command (the CLI + generate's)",
            "poolgen.cli.main, poolgen.loader, poolgen.run.generate, poolgen.run.signing, "
            "poolgen.deliverables.validation, poolgen.seeds.ceremony_file"),
           ("a generate worker (poolgen.run.generate)", "poolgen.run.generate"),
           ("a verify worker (audit.verify, scipy.special)", "audit.verify, scipy.special"))


def _imported(modules: str) -> None:
    """A fresh interpreter importing `modules` (its CPU time is counted as this process's children's,
    so the measured time is read from RUSAGE_CHILDREN around it)."""
    subprocess.run([sys.executable, "-c", f"import {modules}"], check=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})


def _cpu() -> float:
    """CPU seconds of this process (every thread) and of the child processes it has waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _fresh(run: Path | None, out: Path) -> Path:
    """A new folder (holding the run's pool and imaging files, hard links), to write into again."""
    folder = Path(tempfile.mkdtemp(dir=out))
    for p in run.glob("*.parquet") if run else ():
        os.link(p, folder / p.name)
    return folder


def _now():  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime  # noqa: PLC0415 - a fixed clock, only here

    return datetime(2026, 12, 1, tzinfo=UTC)


if __name__ == "__main__":
    main()
