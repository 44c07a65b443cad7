"""Generating a run: every requested pool built, written as Parquet, and described in a manifest.

`generate(GenerateRequest(game, seed, now=..., out=..., run_id=...))` is pure given its request: the
seed and the clock are read by the caller (the CLI), so tests drive it with fixed values. Pools are
independent (each from its own derived streams), so they may be built by several worker processes;
the files are identical whatever the number of workers.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import queue
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, cast

import numpy as np
import polars as pl

import poolgen
from audit.interrupts import Early, Shared, prepared, stop
from audit.styles import AREA_ENGINES, TICKET_ENGINES
from audit.styles.play import evaluate_play
from poolgen.deliverables.write import (
    PoolParts,
    ValidationJob,
    extra_streams,
    free_ticket_tiers,
    manifest_part,
    write_imaging,
    write_run_files,
)
from poolgen.errors import RunError, SpecError
from poolgen.files.read import file_entry
from poolgen.files.write import canonical_bytes, secret_output, staged_folder, write_atomic
from poolgen.game.model import Game, Pool, Printed
from poolgen.interrupts import deferred, pause_point, starting_workers, worker_init
from poolgen.loader import load_spec
from poolgen.money import USD
from poolgen.rng import ALGORITHM
from poolgen.rng.drbg import label_text
from poolgen.rng.labels import stream_label
from poolgen.run.build import PURPOSES, build_pool_counted
from poolgen.run.manifest import MANIFEST, pool_figures, totals
from poolgen.run.merkle import ALGORITHM as MERKLE_ALGORITHM
from poolgen.run.merkle import root as merkle_root
from poolgen.run.provenance import code_entry
from poolgen.run.split import manifest_split, split_game, split_label
from poolgen.seeds.seed import commitment

STEPS = ("shuffle and lay out", "check", "write and hash")
Progress = Callable[[str, int], None]  # (pool id, steps done)


@dataclass(frozen=True)
class GenerateRequest:
    """What to generate: pools of `game` from `seed`, into a new run folder `out/run_id`.

    `pool_ids`: the pools to build (default every pool of the game); `signature`: the manifest's
    entry naming the signing key (default {"signed": false}); `ceremony`: the manifest entry of the
    sealed ceremony the seed came from (poolgen/seeds/ceremony.py), if any; `validation_keys`
    (low, high): write a printed run's validation files (docs/validation.md), at
    `high_tier_cents` (default the game's) and above from the high-tier file; `book_key`: number
    a printed order's books under a key held apart from the seed (docs/validation.md)."""

    game: Game
    seed: bytes = field(repr=False)
    now: datetime
    out: Path
    run_id: str
    pool_ids: list[str] | None = None
    workers: int = 1
    signature: dict[str, Any] | None = None
    ceremony: dict[str, Any] | None = None
    validation_keys: tuple[bytes, bytes] | None = field(default=None, repr=False)
    high_tier_cents: int | None = None
    book_key: bytes | None = field(default=None, repr=False)


@dataclass(frozen=True)
class RunResult:
    folder: Path
    manifest: dict[str, Any]


def pool_file_name(pool_id: str) -> str:
    return f"pool-{pool_id}.parquet"


def make_pool(game: Game, pool_id: str, seed: bytes, folder: Path,
              progress: Progress | None = None, book_key: bytes | None = None) -> dict[str, Any]:
    """Build one pool, write its Parquet file into `folder`, and return its manifest entry."""
    return make_pool_parts(game, pool_id, seed, folder, progress, None, book_key)[0]


def make_pool_parts(game: Game, pool_id: str, seed: bytes, folder: Path, progress: Progress | None = None,
                    validation: ValidationJob | None = None,
                    book_key: bytes | None = None) -> tuple[dict[str, Any], PoolParts | None]:
    """`make_pool`, and for a printed game also the pool's imaging file, and the pool's parts of the
    run's files (deliverables/write.py), made here, in the pool's worker, from the table in memory."""
    game = split_game(game, seed)  # a split's counts per pool, from the seed (poolgen/run/split.py)
    pool = game.pool(pool_id)
    df, counts = build_pool_counted(game, pool, seed, book_key)
    if progress:
        progress(pool_id, 1)

    def check_then_write() -> tuple[dict[str, Any], PoolParts | None]:
        self_check(game, pool, df)  # raises before anything is written
        if progress:
            progress(pool_id, 2)
        file = _write_pool_file(df, folder / pool_file_name(pool_id))
        # printed games: the printer's file and the validation records (deliverables/)
        return file, write_imaging(game, pool, df, seed, folder, validation)

    # The check (numpy) and the write (polars, and hashlib over the whole file) mostly run without the
    # GIL, so they run on a thread while this one computes the Merkle root, which holds it (one small
    # SHA-256 call per row). A root is only used once the check has passed and the file is written.
    with ThreadPoolExecutor(max_workers=1) as worker:
        checked = worker.submit(check_then_write)
        root = merkle_root(df)
        file, parts = checked.result()
    entry = pool_figures(pool, counts, [t.prize_cents for t in pool.tiers])
    entry["file"] = file
    entry["columns"] = df.columns
    entry["merkle"] = {"algorithm": MERKLE_ALGORITHM, "root": root.hex()}
    if progress:
        progress(pool_id, 3)
    return entry, parts


def _write_pool_file(df: pl.DataFrame, path: Path) -> dict[str, Any]:
    """Write the pool's Parquet file, fsync it (on disk before the run folder is renamed into place)
    and return its manifest file entry.

    zstd at level 1 without column statistics: on a 1,000,000-share eInstant pool of 4 play areas this takes
    about half the CPU time of level 3 with statistics, and the file is no larger (the salts, which
    no level compresses, are half of it). Nothing here reads statistics."""
    with secret_output(path, "the pool file") as f:  # it holds every outcome: mode 0600 (docs/validation.md)
        df.write_parquet(f, compression="zstd", compression_level=1, statistics=False)
    return file_entry(path)


def self_check(game: Game, pool: Pool, df: pl.DataFrame) -> None:
    """Re-evaluate every layout with audit's independent rules engine before anything is written,
    from the manifest's `play` entry as verify's step 4 does.

    A pool whose layouts do not pay exactly their stored prizes, or break the game's rules, is never
    written, let alone signed. (poolgen may use audit; audit never uses poolgen.)
    """
    entry = {"id": pool.id, "price_cents": pool.price_cents, "tickets": pool.tickets,
             "denomination_cents": pool.denomination_cents, "play_areas": pool.play_areas}
    missing = [s for s in game.play.styles if s not in AREA_ENGINES and s not in TICKET_ENGINES]
    if missing:
        raise RunError(f"{game.file}: no audit rules engine for {', '.join(map(repr, missing))}; "
                       "refusing to write layouts nobody can check")
    try:
        result = evaluate_play(df, entry, game.play.document())
    except ValueError as exc:  # a play entry audit cannot read: check should have refused the spec
        raise RunError(f"{game.file}: pool {pool.id}: audit's engine refuses the run ({exc}); "
                       "nothing was written") from None
    stored = df.get_column("prize_cents").to_numpy()
    wrong = np.flatnonzero(result.prize_cents != stored)
    if len(wrong) or result.illegal:
        first = (f"position {int(wrong[0])} pays {int(result.prize_cents[wrong[0]])} cents, "
                 f"stores {int(stored[wrong[0]])}") if len(wrong) else \
            f"position {result.illegal[0][0]}: {result.illegal[0][1]}"
        raise RunError(f"{game.file}: pool {pool.id}: {len(wrong)} layout(s) pay another prize "
                       f"and {len(result.illegal)} break the rules (first: {first}); nothing was written")


_progress_queue = None  # in a worker: where its progress goes (given once, when the worker starts)


def worker_start(q: mp.Queue[tuple[str, int]]) -> None:
    """A worker's initializer, by name through audit.interrupts.prepared (which pauses the interrupt
    tests at "worker-start" first: a worker still starting, SIGINT and SIGTERM blocked)."""
    global _progress_queue
    worker_init()
    _progress_queue = q


def _worker(spec_path: str, sha256: str, pool_id: str, seed: bytes, folder: str,
            book_key: bytes | None,
            validation: ValidationJob | None) -> tuple[dict[str, Any], PoolParts | None]:
    game = load_spec(spec_path)
    if game.sha256 != sha256:  # the manifest records the spec the run started with
        raise SpecError(f"{game.file}: changed on disk while the run was being generated")
    q = _progress_queue
    done = make_pool_parts(game, pool_id, seed, Path(folder), lambda p, n: q.put((p, n)) if q else None,
                           validation, book_key)
    pause_point("pool-written")
    return done


def tool_versions() -> dict[str, Any]:
    """poolgen's version and those of the libraries whose output is in the pool files' bytes."""
    import cryptography

    return {"name": "poolgen", "version": poolgen.__version__, "numpy": np.__version__,
            "polars": pl.__version__, "cryptography": cryptography.__version__, "code": code_entry()}


def manifest_document(game: Game, seed: bytes, now: datetime, run_id: str, pools: list[dict[str, Any]],
                      signature: dict[str, Any] | None = None,
                      ceremony: dict[str, Any] | None = None) -> dict[str, Any]:
    """The run's manifest; `ceremony` is the sealed seed ceremony's entry (docs/ceremony.md), if any."""
    streams = [label_text(stream_label(game.id, p["id"], purpose))
               for p in pools for purpose in PURPOSES]
    doc = {
        "format": "poolgen-manifest/1",
        "tool": tool_versions(),
        "created": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "run_id": run_id,
        "spec": {"file": game.path.name, "sha256": game.sha256},
        "game": {"name": game.name, "number": game.number, "regulation": game.regulation,
                 "rules": game.id, "kind": game.kind, "tickets_per_book": game.tickets_per_book}
        | game.play.game_entry() | ({} if game.currency == USD else {"currency": game.currency.code}),
        "drbg": {"algorithm": ALGORITHM, "streams": streams},
        "seed_commitment": {"algorithm": 'SHA-256("poolgen/seed-commitment/v1" || seed)',
                            "value": commitment(seed)},
        "pools": pools,
        "totals": totals(pools),
        "signature": signature or {"signed": False},
    }
    doc["play"] = game.play.document()  # what audit's engines evaluate (docs/styles/)
    if ceremony is not None:
        doc["ceremony"] = ceremony
    return doc


def generate(request: GenerateRequest, *, progress: Progress | None = None,
             finish: Callable[[Path, dict[str, Any]], None] | None = None,
             committed: Callable[[Path], None] | None = None, early: Early | None = None) -> RunResult:
    """Build the requested pools into a new run folder `out/run_id`, written atomically.

    `finish(folder, manifest)` runs inside the staged folder after the manifest is written (the CLI
    signs there), so a run is either complete, signature included, or absent. `committed(folder)`
    runs just after the run folder is renamed into place, before an interrupt is let through (the
    CLI names the run's fresh seed there). `progress(pool id, steps done)` follows each pool. `early`:
    worker processes the CLI started as it started (`worker_start`), used if they are as many as
    the run can use, else ended (the caller ends them on every way out, `Early.close`).
    """
    seed, keys, threshold = request.seed, request.validation_keys, request.high_tier_cents
    game = split_game(request.game, seed)
    ids = request.pool_ids or [p.id for p in game.pools]
    for pid in ids:
        game.pool(pid)  # an unknown pool id fails before anything is written
    if len(set(ids)) != len(ids):
        raise SpecError(f"{game.file}: a pool id is named twice: {', '.join(ids)}")
    code_entry()  # the manifest's code hash, before anything is written: a package it refuses makes no run
    with staged_folder(request.out / request.run_id, committed) as folder:
        job = None  # printed games with keys: each pool's worker makes its validation records
        if keys is not None and isinstance(game.sales, Printed):
            job = ValidationJob(keys, request.run_id, threshold or game.sales.high_tier_cents,
                                tuple(free_ticket_tiers(game)))
        if request.workers <= 1 or len(ids) == 1:
            if early is not None:
                early.close()  # no worker needed: none waits idle while this process builds
            done = [make_pool_parts(game, pid, seed, folder, progress, job, request.book_key) for pid in ids]
        else:
            done = _in_parallel(game, ids, seed, folder, request.workers, progress, job, request.book_key,
                                early)
        entries = [entry for entry, _ in done]
        parts = {pid: pool_parts for pid, (_, pool_parts) in zip(ids, done, strict=True)}
        write_run_files(game, folder, request.run_id, ids, parts, keys, threshold)
        del done, parts  # the validation records: freed before the manifest
        manifest = manifest_document(game, seed, request.now, request.run_id, entries, request.signature,
                                     request.ceremony)
        manifest.update(manifest_part(game, folder, ids, keys, threshold, request.book_key))
        manifest["drbg"]["streams"] += extra_streams(game, ids, request.book_key is not None)
        if (split := manifest_split(game)) is not None:  # after the books stream, before the pools' virn
            manifest["print"]["split"] = split
            at = len(manifest["drbg"]["streams"]) - len(ids)
            manifest["drbg"]["streams"].insert(at, label_text(split_label(game.id)))
        write_atomic(folder / MANIFEST, canonical_bytes(manifest))
        if finish is not None:
            finish(folder, manifest)
    return RunResult(request.out / request.run_id, manifest)


def _in_parallel(game: Game, ids: list[str], seed: bytes, folder: Path, workers: int,
                 progress: Progress | None, job: ValidationJob | None,
                 book_key: bytes | None,
                 early: Early | None = None) -> list[tuple[dict[str, Any], PoolParts | None]]:
    """The pools built `workers` at once: by this process and by `workers - 1` worker processes, the
    largest pool left first, each worker handed its next pool the moment it finishes one, by a thread
    of this process (audit.interrupts.Shared), so that none waits while this process builds a pool.
    A worker process costs about half a second of CPU to start (numpy, polars and poolgen imported
    again; docs/scaling.md): this process would only wait. Workers started `early` (by the CLI, as it
    started) are used if they are as many as needed, with the progress queue they were given."""
    slots = min(workers - 1, len(ids) - 1)
    pool = early.take(slots) if early is not None else None
    if early is not None and pool is not None:
        q = cast("mp.Queue[tuple[str, int]]", early.args[0])
    else:
        ctx = mp.get_context("spawn")  # no inherited state: a worker sees only its arguments
        q = ctx.Queue()  # given to each worker as it starts: no manager process to outlive us
        pool = ProcessPoolExecutor(max_workers=slots, mp_context=ctx,
                                   initializer=partial(prepared, "poolgen.run.generate:worker_start", (), q))

    def here(pid: str, n: int, queue: mp.Queue[tuple[str, int]] = q) -> None:
        if progress:  # this process's pools: told at once, and the workers' news so far
            progress(pid, n)
        _drain(queue, progress)

    # Largest pools first, so that no one starts a big pool while the others are finishing (results
    # are collected by pool id, so the manifest keeps the order of `ids`).
    shared: Shared[str, tuple[dict[str, Any], PoolParts | None]] = Shared(
        sorted(ids, key=lambda pid: -_work(game.pool(pid))),
        partial(_submit, pool, game, seed, folder, book_key, job))
    results: dict[str, tuple[dict[str, Any], PoolParts | None]] = {}
    try:
        with starting_workers():  # starts the worker processes, and the thread that hands them pools
            shared.start(slots)
        while (pid := shared.take()) is not None:  # this process's pools
            results[pid] = make_pool_parts(game, pid, seed, folder, here, job, book_key)
            results.update((p, f.result()) for p, f in shared.finished())
        while shared.busy():
            results.update((p, f.result()) for p, f in shared.finished(timeout=0.2))
            _drain(q, progress)
    except BrokenProcessPool:
        shared.stop()
        stop(pool)
        raise RunError("a worker process died (killed, or out of memory?); nothing was written") from None
    except BaseException:
        shared.stop()
        stop(pool)  # an error or an interrupt: no worker goes on writing into the staging folder
        raise
    # The pool's and the queue's semaphores are released by finalizers as they are collected: a signal
    # raised inside one is swallowed ("Exception ignored") and the interrupt lost. Collect them now,
    # signals held back (one that came is raised after).
    with deferred():
        pool.shutdown()
        _drain(q, progress)
        q.close()
        q.join_thread()
        del pool, q, shared, here
        gc.collect()
    return [results[pid] for pid in ids]


def _submit(pool: ProcessPoolExecutor, game: Game, seed: bytes, folder: Path, book_key: bytes | None,
            job: ValidationJob | None, pid: str) -> Future[tuple[dict[str, Any], PoolParts | None]]:
    return pool.submit(_worker, str(game.path), game.sha256, pid, seed, str(folder), book_key, job)


def _work(pool: Pool) -> int:
    """A pool's relative cost: its tickets times its play areas (layout columns per ticket)."""
    return pool.tickets * (pool.play_areas or 1)


def _drain(q: mp.Queue[tuple[str, int]], progress: Progress | None) -> None:
    while True:
        try:
            pid, n = q.get_nowait()
        except queue.Empty:
            return
        if progress:
            progress(pid, n)
