"""Generating a run: every requested pool built, written as Parquet, and described in a manifest.

`generate(spec, seed, now=..., out=..., ...)` is pure given its inputs: the seed and the clock are
read by the caller (the CLI), so tests drive it with fixed values. Pools are independent (each
from its own derived streams), so they may be built by several worker processes; the files are
identical whatever the number of workers.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import queue
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np
import polars as pl

import poolgen
from audit.styles import einstant_engine
from audit.styles.play import evaluate as evaluate_styles
from poolgen.build import PURPOSES, build_pool
from poolgen.deliverables import create_secret_file
from poolgen.deliverables.run import extra_streams, manifest_part, write_imaging, write_run_files
from poolgen.errors import OutputError, RunError, SpecError
from poolgen.fsutil import staged_folder, write_atomic
from poolgen.interrupts import deferred, pause_point, starting_workers, worker_init
from poolgen.manifest import MANIFEST, canonical_bytes, file_entry, pool_figures, totals
from poolgen.merkle import ALGORITHM as MERKLE_ALGORITHM
from poolgen.merkle import root as merkle_root
from poolgen.provenance import code_entry
from poolgen.rng import ALGORITHM
from poolgen.rng.drbg import label_text
from poolgen.seeds import commitment, stream_label
from poolgen.spec import Pool, Spec, load_spec
from poolgen.styles import einstant_module

STEPS = ("shuffle and lay out", "check", "write and hash")
Progress = Callable[[str, int], None]  # (pool id, steps done)


@dataclass(frozen=True)
class RunResult:
    folder: Path
    manifest: dict


def pool_file_name(pool_id: str) -> str:
    return f"pool-{pool_id}.parquet"


def make_pool(spec: Spec, pool_id: str, seed: bytes, folder: Path,
              progress: Progress | None = None) -> dict:
    """Build one pool, write its Parquet file into `folder`, and return its manifest entry."""
    pool = spec.pool(pool_id)
    df = build_pool(spec, pool, seed)
    if progress:
        progress(pool_id, 1)

    def check_then_write() -> dict:
        self_check(spec, pool, df)  # raises before anything is written
        if progress:
            progress(pool_id, 2)
        file = _write_pool_file(df, folder / pool_file_name(pool_id))
        write_imaging(spec, pool, df, seed, folder)  # printed games: the printer's file (deliverables/)
        return file

    # The check (numpy) and the write (polars, and hashlib over the whole file) mostly run without the
    # GIL, so they run on a thread while this one computes the Merkle root, which holds it (one small
    # SHA-256 call per row). A root is only used once the check has passed and the file is written.
    with ThreadPoolExecutor(max_workers=1) as worker:
        checked = worker.submit(check_then_write)
        root = merkle_root(df)
        file = checked.result()
    found = dict(df.group_by("tier").len().iter_rows())
    counts = [int(found.get(t.id, 0)) for t in pool.tiers]
    entry = pool_figures(pool, counts, [t.prize_cents for t in pool.tiers])
    entry["file"] = file
    entry["columns"] = df.columns
    entry["merkle"] = {"algorithm": MERKLE_ALGORITHM, "root": root.hex()}
    if progress:
        progress(pool_id, 3)
    return entry


def _write_pool_file(df: pl.DataFrame, path: Path) -> dict:
    """Write the pool's Parquet file, fsync it (on disk before the run folder is renamed into place)
    and return its manifest file entry.

    zstd at level 1 without column statistics: on a 1,000,000-share eInstant pool of 4 play areas this takes
    about half the CPU time of level 3 with statistics, and the file is no larger (the salts, which
    no level compresses, are half of it). Nothing here reads statistics."""
    try:
        with create_secret_file(path) as f:  # it holds every outcome: mode 0600 (docs/validation.md)
            df.write_parquet(f, compression="zstd", compression_level=1, statistics=False)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        raise OutputError(f"{path}: cannot write the pool file: {exc.strerror or exc}") from None
    return file_entry(path)


def self_check(spec: Spec, pool: Pool, df: pl.DataFrame) -> None:
    """Re-evaluate every layout with audit's independent rules engine before anything is written.

    A pool whose layouts do not pay exactly their stored prizes, or break the game's rules, is never
    written, let alone signed. (poolgen may use audit; audit never uses poolgen.)
    """
    entry = {"id": pool.id, "price_cents": pool.price_cents, "tickets": pool.tickets,
             "denomination_cents": pool.denomination_cents, "play_areas": pool.play_areas}
    try:
        if spec.styles is not None:  # audit's style engines, from the manifest's play entry
            play = spec.styles.play_document()
            evaluate = lambda table, pool_entry: evaluate_styles(table, pool_entry, play)  # noqa: E731
        else:  # an eInstant style's audit engine, from the manifest's play entry
            play = einstant_module(spec.style).play_document(spec)
            engine = einstant_engine(spec.style)
            evaluate = lambda table, pool_entry: engine.evaluate(table, pool_entry, play)  # noqa: E731
    except (LookupError, ValueError):
        raise RunError(f"{spec.path.name}: no audit rules engine for {spec.style or spec.rules!r}; "
                       "refusing to write layouts nobody can check") from None
    try:
        result = evaluate(df, entry)
    except ValueError as exc:  # a play entry audit cannot read: check should have refused the spec
        raise RunError(f"{spec.path.name}: pool {pool.id}: audit's engine refuses the run ({exc}); "
                       "nothing was written") from None
    stored = df.get_column("prize_cents").to_numpy()
    wrong = np.flatnonzero(result.prize_cents != stored)
    if len(wrong) or result.illegal:
        first = (f"position {int(wrong[0])} pays {int(result.prize_cents[wrong[0]])} cents, "
                 f"stores {int(stored[wrong[0]])}") if len(wrong) else \
            f"position {result.illegal[0][0]}: {result.illegal[0][1]}"
        raise RunError(f"{spec.path.name}: pool {pool.id}: {len(wrong)} layout(s) pay another prize "
                       f"and {len(result.illegal)} break the rules (first: {first}); nothing was written")


_progress_queue = None  # in a worker: where its progress goes (given once, when the worker starts)


def _worker_start(q) -> None:
    global _progress_queue
    pause_point("worker-start")  # a worker still starting: SIGINT and SIGTERM are blocked here
    worker_init()
    _progress_queue = q


def _worker(spec_path: str, sha256: str, pool_id: str, seed: bytes, folder: str) -> dict:
    spec = load_spec(spec_path)
    if spec.sha256 != sha256:  # the manifest records the spec the run started with
        raise SpecError(f"{spec.path.name}: changed on disk while the run was being generated")
    q = _progress_queue
    entry = make_pool(spec, pool_id, seed, Path(folder), lambda p, n: q.put((p, n)) if q else None)
    pause_point("pool-written")
    return entry


def tool_versions() -> dict:
    """poolgen's version and those of the libraries whose output is in the pool files' bytes."""
    import cryptography

    return {"name": "poolgen", "version": poolgen.__version__, "numpy": np.__version__,
            "polars": pl.__version__, "cryptography": cryptography.__version__, "code": code_entry()}


def manifest_document(spec: Spec, seed: bytes, now: datetime, run_id: str, pools: list[dict],
                      signature: dict | None = None, ceremony: dict | None = None) -> dict:
    """The run's manifest; `ceremony` is the sealed seed ceremony's entry (docs/ceremony.md), if any."""
    streams = [label_text(stream_label(spec.rules, p["id"], purpose))
               for p in pools for purpose in PURPOSES]
    doc = {
        "format": "poolgen-manifest/1",
        "tool": tool_versions(),
        "created": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "run_id": run_id,
        "spec": {"file": spec.path.name, "sha256": spec.sha256},
        "game": {"name": spec.name, "number": spec.number, "regulation": spec.regulation,
                 "rules": spec.rules, "kind": spec.kind,
                 "tickets_per_book": spec.tickets_per_book},
        "drbg": {"algorithm": ALGORITHM, "streams": streams},
        "seed_commitment": {"algorithm": 'SHA-256("poolgen/seed-commitment/v1" || seed)',
                            "value": commitment(seed)},
        "pools": pools,
        "totals": totals(pools),
        "signature": signature or {"signed": False},
    }
    if spec.styles is not None:  # what audit's style engines evaluate (docs/styles/play.md)
        doc["play"] = spec.styles.play_document()
    if spec.style is not None:  # an eInstant style: every parameter its audit engine reads
        doc["game"]["style"] = spec.style
        doc["play"] = einstant_module(spec.style).play_document(spec)
    if ceremony is not None:
        doc["ceremony"] = ceremony
    return doc


def generate(spec: Spec, seed: bytes, *, now: datetime, out: Path, run_id: str,
             pool_ids: list[str] | None = None, workers: int = 1,
             progress: Progress | None = None,
             signature: dict | None = None,
             finish: Callable[[Path, dict], None] | None = None,
             ceremony: dict | None = None,
             committed: Callable[[Path], None] | None = None,
             validation_keys: tuple[bytes, bytes] | None = None,
             high_tier_cents: int | None = None) -> RunResult:
    """Build the pools into a new run folder `out/run_id`, written atomically.

    `signature` is the manifest's entry naming the signing key (default: {"signed": false});
    `finish(folder, manifest)` runs inside the staged folder after the manifest is written (the
    CLI signs there), so a run is either complete, signature included, or absent. `ceremony` is
    the manifest entry of the sealed ceremony the seed came from (poolgen/ceremony.py), if any.
    `committed(folder)` runs just after the run folder is renamed into place, before an interrupt is
    let through (the CLI names the run's fresh seed there).
    `validation_keys` (low, high): write the validation files of a printed run (docs/validation.md).
    """
    ids = pool_ids or [p.id for p in spec.pools]
    for pid in ids:
        spec.pool(pid)  # an unknown pool id fails before anything is written
    if len(set(ids)) != len(ids):
        raise SpecError(f"{spec.path.name}: a pool id is named twice: {', '.join(ids)}")
    with staged_folder(out / run_id, committed) as folder:
        if workers <= 1 or len(ids) == 1:
            entries = [make_pool(spec, pid, seed, folder, progress) for pid in ids]
        else:
            entries = _in_parallel(spec, ids, seed, folder, workers, progress)
        write_run_files(spec, folder, run_id, ids, validation_keys, high_tier_cents)
        manifest = manifest_document(spec, seed, now, run_id, entries, signature, ceremony)
        manifest.update(manifest_part(spec, folder, ids, validation_keys, high_tier_cents))
        manifest["drbg"]["streams"] += extra_streams(spec, ids)
        write_atomic(folder / MANIFEST, canonical_bytes(manifest))
        if finish is not None:
            finish(folder, manifest)
    return RunResult(out / run_id, manifest)


def _in_parallel(spec: Spec, ids: list[str], seed: bytes, folder: Path, workers: int,
                 progress: Progress | None) -> list[dict]:
    ctx = mp.get_context("spawn")  # no inherited state: a worker sees only its arguments
    q = ctx.Queue()  # given to each worker as it starts: no manager process to outlive us
    pool = ProcessPoolExecutor(max_workers=min(workers, len(ids)), mp_context=ctx,
                               initializer=_worker_start, initargs=(q,))
    try:
        # Largest pools first, so that no worker starts a big pool while the others are finishing
        # (results are collected by pool id, so the manifest keeps the order of `ids`).
        by_work = sorted(ids, key=lambda pid: -_work(spec.pool(pid)))
        with starting_workers():  # each submit may start a worker process
            futures = {pool.submit(_worker, str(spec.path), spec.sha256, pid, seed, str(folder)): pid
                       for pid in by_work}
        pending = set(futures)
        while pending:
            _, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            _drain(q, progress)
        results = {futures[f]: f.result() for f in futures}
    except BrokenProcessPool:
        _stop(pool)
        raise RunError("a worker process died (killed, or out of memory?); nothing was written") from None
    except BaseException:
        _stop(pool)  # an error or an interrupt: no worker goes on writing into the staging folder
        raise
    # The pool's and the queue's semaphores are released by finalizers as they are collected: a signal
    # raised inside one is swallowed ("Exception ignored") and the interrupt lost. Collect them now,
    # signals held back (one that came is raised after).
    with deferred():
        pool.shutdown()
        _drain(q, progress)
        q.close()
        q.join_thread()
        del pool, q, futures, pending
        gc.collect()
    return [results[pid] for pid in ids]


def _stop(pool: ProcessPoolExecutor) -> None:
    """Kill the workers now (they ignore SIGINT and SIGTERM) and wait until they are gone."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for p in processes:
        with suppress(OSError, ValueError):
            p.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        with suppress(OSError, ValueError, AssertionError):
            p.join(5)


def _work(pool: Pool) -> int:
    """A pool's relative cost: its tickets times its play areas (layout columns per ticket)."""
    return pool.tickets * (pool.play_areas or 1)


def _drain(q, progress: Progress | None) -> None:
    while True:
        try:
            pid, n = q.get_nowait()
        except queue.Empty:
            return
        if progress:
            progress(pid, n)
