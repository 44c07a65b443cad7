"""The verifier's checklist: a run folder proven from its files, a public key, and nothing else.

    (1) the Ed25519 signature over manifest.json's exact bytes, with the given public key;
    (2) every listed file exists with the stated size and SHA-256; no unlisted file is present;
    (3) every pool is complete: positions 0..N-1 in order, every ticket identity the one its position
        gives (docs/pool-files.md; printed: its book and ticket number, each book's tickets contiguous
        and numbered 0..per_book-1, audit/steps/books.py), no ticket id in two pools (printed: no book
        number in two), every Merkle salt 32 hex digits and a sample of them distinct (that they are
        random bits from the seed only step 7 can prove);
    (4) every ticket's layout evaluates, with audit.styles from the manifest's `play` entry (a run without
        one is refused), to the prize stored with it; printed runs: no two consecutive tickets of a pack
        with identical play data (audit/steps/packs.py);
    (5) recounted tier counts, winners, prize cost, odds and payout equal the manifest (and, with a spec,
        the spec; the spec's SHA-256 must be the manifest's; printed runs: every pack meets the pack
        parameters the manifest records, `print.packs`, and with a spec its `[packs]`, which the
        manifest's must equal; audit/steps/packs.py);
    (6) every pool's Merkle root recomputes;
    (7) with a seed file: the seed matches the commitment, and regenerating reproduces every pool file
        byte for byte (audit/steps/reproduction.py; the generator is passed in, never imported); with a
        ceremony file instead, the seed is first derived from its reveals and the drand round, each
        signature and the round checked against the manifest's ceremony (audit/steps/ceremony.py); a run
        made under a ceremony is held in step 5 to the spec, code, game, pools and run id its transcript
        bound;
    (8) every pool's statistics pass at 99% confidence for the run: positions, winners and prize value per
        book or block, runs, the layout no-information tests of the game's contract, and the top tiers of
        the run's pools combined by exact tests (audit/stats/; each pool's part is computed where its
        steps 2 to 6 are, the run-level tests from them);
    (9) printed runs: imaging files, pack list and, given the validation keys, the validation files
        re-derived ticket by ticket (audit/steps/deliverables.py, docs/validation.md).

The steps are audit.checklist.Step; each is a function that returns what it checked or raises
VerificationError(step, reason). `verify_run(VerifyRequest(...))` runs them all: a failure never stops the
others; a step that cannot run without an earlier one is reported "skip" with the step it needs. Steps 2
to 6 and each pool's part of step 8 run per pool, optionally in several processes.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing as mp
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.checklist import Outcome, Report, Step, StepResult
from audit.errors import UnusableInput, VerificationError
from audit.interrupts import Early, Shared, deferred, starting_workers, stop, worker_init
from audit.read.limits import read_manifest_bytes
from audit.read.manifest import MANIFEST, Manifest, ManifestError, PoolEntry, fingerprint, load_public_key
from audit.read.runfiles import check_run_folder, read_pool, run_file
from audit.read.specs import read_spec
from audit.read.specs.packs import DEFAULT_RULES, PackRules, for_pool, manifest_packs, read_blocks, read_packs
from audit.stats.step import Lines, PoolStatistics, one_pool, statistics_lines
from audit.steps.books import check_book_key, check_book_numbers, spec_slots
from audit.steps.ceremony import ceremony_seed, check_bound, read_ceremony, seed_file_for_ceremony
from audit.steps.ceremony_bundles import check_bundles, read_published
from audit.steps.deliverables import (
    ImagingJob,
    ImagingOutcome,
    check_deliverable_files,
    check_deliverables,
    imaging_jobs,
    pool_imaging,
    read_key,
)
from audit.steps.figures import check_against_spec, check_fields, check_figures, check_totals
from audit.steps.files import check_file, check_listing, check_signature
from audit.steps.identity import check_complete, check_run_identities, expected_identities
from audit.steps.layouts import check_layouts
from audit.steps.merkle_roots import check_merkle
from audit.steps.packs import check_recorded_packs, pack_outcomes
from audit.steps.reproduction import Regenerate, check_reproduction, check_seed, read_seed

__all__ = ["Report", "StepResult", "VerifyRequest", "attempt", "check_complete", "check_run_identities",
           "expected_identities", "pool_outcomes", "verify_run"]

T = TypeVar("T")
PER_POOL = (Step.FILES, Step.COMPLETENESS, Step.LAYOUTS, Step.FIGURES, Step.MERKLE_ROOTS)


@dataclass(frozen=True, kw_only=True)
class VerifyRequest:
    """What `verify_run` checks, and with what (the options of `python -m audit verify`).

    `regenerate` is the generator step 7 reproduces the pools with (see audit/steps/reproduction.py);
    without it step 7 checks the seed commitment only. `workers`: pools checked at once."""

    run: Path
    public_key: Path | None = None
    spec: Path | None = None
    seed_file: Path | None = None
    ceremony: Path | None = None
    party_keys: tuple[tuple[str, Path], ...] | None = None
    ceremony_bundles: tuple[Path, ...] = ()  # published bundles of every ceremony for the run (step 5)
    earlier_manifests: tuple[Path, ...] = ()  # signed manifests of the earlier orders a reorder follows
    workers: int = 1
    regenerate: Regenerate | None = None
    allow_readable_secret: bool = False
    validation_key: Path | None = None
    high_validation_key: Path | None = None
    book_key: Path | None = None
    reveal: bool = False  # a reveal once claims close: pool files only (docs/publish-and-reveal.md)
    progress: Progress | None = None  # told (done, total, what) as the checklist goes (a progress bar)
    early: Early | None = None  # worker processes the command started as it started (_pool_results)


# ---- the runner ---------------------------------------------------------------------------------

def attempt(step: Step, check: Callable[..., T], *args: Any) -> tuple[str, T | str]:
    """Step `step`'s outcome of `check(*args)`: ("pass", what it returned) or ("fail", why)."""
    try:
        return "pass", check(*args)
    except VerificationError as exc:
        return "fail", exc.reason
    except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
        return "fail", f"could not be checked: {type(exc).__name__}: {exc}"


def pool_outcomes(folder: Path, pool: PoolEntry, rules: str, kind: str, per_book: int | None,
                  number: object = None, play: dict[str, Any] | None = None) -> dict[Step, Outcome]:
    """Steps 2 to 6 for one pool (reads the pool file once)."""
    return _pool_checks(folder, pool, rules, kind, per_book, number, play, None, None, None)[0]


PoolStats = PoolStatistics | Lines | None
PackLines = list[tuple[Step, str, str]]
Progress = Callable[[int, int, str], None]


def _pool_checks(folder: Path, pool: PoolEntry, rules: str, kind: str, per_book: int | None, number: object,
                 play: dict[str, Any] | None, manifest: Manifest | None, packs: PackRules | None,
                 whose: str | None, imaging: ImagingJob | None = None) -> PoolResult:
    """Steps 2 to 6 for one pool and, given the manifest, its part of step 8 (audit.stats.step.one_pool),
    given pack rules, its pack checks (audit.steps.packs), and given `imaging`, step 9's check of its
    imaging file (else None: step 9 then reads the pool file itself), from one read of the pool file.
    `whose`: where the pack rules come from ("spec", "manifest"), None for the default neighbour rule
    alone."""
    stats_packs = packs if whose is not None else None
    out: dict[Step, Outcome] = {Step.FILES: attempt(Step.FILES, check_file, folder, pool)}
    if not (folder / pool.file).is_file():
        stats = one_pool(folder, manifest, pool, packs=stats_packs) if manifest else None
        skipped = {s: ("skip", f"needs step 2: {pool.file} is missing") for s in PER_POOL[1:]}
        return out | skipped, stats, [], None
    try:
        table = read_pool(folder, pool.file)
    except Exception as exc:
        why = f"{pool.file} cannot be read as Parquet: {type(exc).__name__}: {exc}"
        out[Step.COMPLETENESS] = ("fail", why)
        stats = one_pool(folder, manifest, pool, packs=stats_packs) if manifest else None
        unread = {s: ("skip", f"needs step 3: {pool.file} cannot be read") for s in PER_POOL[2:]}
        return out | unread, stats, [], None
    out[Step.COMPLETENESS] = attempt(Step.COMPLETENESS, check_complete, table, pool, kind, per_book, number)
    out[Step.LAYOUTS] = attempt(Step.LAYOUTS, check_layouts, table, pool, rules, play)
    out[Step.FIGURES] = attempt(Step.FIGURES, check_figures, table, pool, manifest.sign if manifest else "$")
    out[Step.MERKLE_ROOTS] = attempt(Step.MERKLE_ROOTS, check_merkle, table, pool)
    size = per_book or (packs.size if packs is not None else None) or table.height  # no blocks: the pool
    lines = pack_outcomes(table, size, packs, whose) if packs is not None else []  # packs, eInstant blocks
    stats = one_pool(folder, manifest, pool, table, stats_packs) if manifest else None
    return out, stats, lines, (pool_imaging(folder, pool, imaging, table) if imaging is not None else None)


PoolJob = tuple[Path, PoolEntry, str, str, "int | None", object, "dict[str, Any] | None", "Manifest | None",
                "PackRules | None", "str | None", "ImagingJob | None"]


def _pool_job(args: PoolJob) -> PoolResult:
    return _pool_checks(*args)


PoolResult = tuple[dict[Step, Outcome], "PoolStats", "PackLines", "ImagingOutcome | None"]


def _submit(pool: ProcessPoolExecutor, jobs: list[PoolJob], i: int) -> Future[PoolResult]:
    return pool.submit(_pool_job, jobs[i])


def _pool_results(jobs: list[PoolJob], workers: int, tick: Callable[[str], None] = lambda pool: None,
                  early: Early | None = None) -> list[PoolResult]:
    """Steps 2 to 6 and 8 (and step 9's imaging check) of every pool, in `workers` processes if more than
    one (in the jobs' order); `tick(pool id)` as each is done, in the jobs' order.

    This process is one of the `workers`: it checks pools too, while `workers - 1` worker processes check
    others (each costs about half a second of CPU to start: numpy, polars and audit imported again;
    docs/scaling.md; those started `early` are used if they are as many, else ended): all take the largest
    file left, and a worker is handed its next pool the moment it finishes one, by a thread of this process
    (audit.interrupts.Shared)."""
    slots = min(workers - 1, len(jobs) - 1)
    taken = early.take(slots) if early is not None else None  # else ended (none needed: none waits idle)
    if slots < 1:
        out = []
        for j in jobs:
            out.append(_pool_job(j))
            tick(j[1].id)
        return out
    pool = taken or ProcessPoolExecutor(max_workers=slots, mp_context=mp.get_context("spawn"),
                                        initializer=worker_init)
    shared: Shared[int, PoolResult] = Shared(sorted(range(len(jobs)), key=lambda i: -jobs[i][1].file_bytes),
                                             partial(_submit, pool, jobs))
    results: dict[int, PoolResult] = {}
    told = 0

    def collect(done: list[tuple[int, Future[PoolResult]]]) -> None:
        nonlocal told
        for i, f in done:
            results[i] = f.result()
        while told < len(jobs) and told in results:
            tick(jobs[told][1].id)
            told += 1

    try:
        with starting_workers():  # starts the worker processes, and the thread that hands them pools
            shared.start(slots)
        while (i := shared.take()) is not None:  # this process's pools
            results[i] = _pool_job(jobs[i])
            collect(shared.finished())
        while shared.busy():
            collect(shared.finished(timeout=0.2))
    except BaseException:
        shared.stop()
        stop(pool)  # an interrupt: no worker goes on reading
        raise
    with deferred():  # the pool's semaphores are released by finalizers: a signal inside one is lost
        pool.shutdown()
        del pool, shared
        gc.collect()
    return [results[i] for i in range(len(jobs))]


def _party_keys(pairs: tuple[tuple[str, Path], ...]) -> dict[str, Ed25519PublicKey]:
    """The parties' public keys the auditor expects, by name (--party-key NAME=FILE)."""
    keys: dict[str, Ed25519PublicKey] = {}
    for name, path in pairs:
        if name in keys:
            raise UnusableInput(f"--party-key {name}: named twice")
        keys[name] = load_public_key(path)
    return keys


def verify_run(request: VerifyRequest) -> Report:
    """Run the checklist on a run folder. Raises UnusableInput when nothing can be checked."""
    r = request
    folder = Path(r.run)
    if not os.path.isdir(folder):  # os.path: a name too long to look up is no folder, not a traceback
        raise UnusableInput(f"{folder}: run folder not found")
    if not os.path.exists(folder / MANIFEST):
        raise UnusableInput(f"{folder}: no {MANIFEST} in the run folder")
    data = read_manifest_bytes(run_file(folder, MANIFEST, "manifest"))
    key = load_public_key(r.public_key) if r.public_key is not None else None
    spec = read_spec(r.spec) if r.spec is not None else None
    packs = DEFAULT_RULES
    if spec is not None and spec.doc.get("format") in (1, 2):
        try:
            packs = read_packs(spec.doc) if spec.doc.get("format") == 2 else read_blocks(spec.doc)
        except (KeyError, TypeError, AttributeError, ValueError, UnusableInput) as exc:
            table = "[packs]" if spec.doc.get("format") == 2 else "[blocks]"
            raise UnusableInput(f"{r.spec}: {table} cannot be read: {exc}") from None
    seed = None
    if r.seed_file is not None and r.ceremony is not None:
        raise UnusableInput("give --seed-file or --ceremony, not both: the ceremony gives the seed")
    ceremony_doc = read_ceremony(r.ceremony) if r.ceremony is not None else None
    party_keys = _party_keys(r.party_keys) if r.party_keys else None
    bundles, earlier = read_published(r.ceremony_bundles, r.earlier_manifests)
    if r.seed_file is not None:
        if r.spec is None and r.regenerate is not None:  # the commitment alone needs no spec
            raise UnusableInput("--seed-file needs --spec: regenerating the pools needs the game's spec")
        seed = read_seed(r.seed_file, r.allow_readable_secret)
    book_key = read_key(r.book_key, r.allow_readable_secret) if r.book_key is not None else None
    keys = {t: read_key(k, r.allow_readable_secret) if k else None
            for t, k in (("low", r.validation_key), ("high", r.high_validation_key))}
    step = {s: StepResult(s, s.title) for s in Step}
    step[Step.DELIVERABLES].required = False  # its parts without a key are skipped, not failed
    report = Report(folder, fingerprint(key) if key else None, list(step.values()))
    try:
        manifest: Manifest | None = Manifest.parse(data)
        unreadable = ""
    except ManifestError as exc:
        manifest, unreadable = None, str(exc)

    if key is None:
        step[Step.SIGNATURE].add("skip", "no public key given")
        step[Step.SIGNATURE].required = False
    else:
        step[Step.SIGNATURE].add(*attempt(Step.SIGNATURE, check_signature, folder, data, manifest, key))
    if seed is None and ceremony_doc is None:
        step[Step.REPRODUCTION].add("skip", "not requested (give --seed-file and --spec, or --ceremony)")
        step[Step.REPRODUCTION].required = False
    if manifest is None:
        step[Step.SIGNATURE].add("fail", f"manifest.json is not a valid manifest: {unreadable}")
        requested = seed is not None or ceremony_doc is not None  # else step 7 is skipped already
        for s in Step:
            if s != Step.SIGNATURE and (requested or s != Step.REPRODUCTION):
                step[s].add("skip", "needs a readable manifest.json (step 1)")
        return report

    check_run_folder(folder, manifest)  # every listed file a bounded regular file of the folder, or exit 2
    step[Step.FILES].add(*attempt(Step.FILES, check_listing, folder, manifest, r.reveal))
    if manifest.doc.get("deliverables"):
        step[Step.FILES].add(*attempt(Step.FILES, check_deliverable_files, folder, manifest, r.reveal))
    number = manifest.doc["game"].get("number")
    play = manifest.doc.get("play")  # a style-based run (docs/styles/play.md)
    recorded = manifest_packs(manifest.doc)  # what the run says its packs obey (None: an older run)
    whose = "spec" if spec is not None else "manifest" if recorded is not None else None
    if spec is None and recorded is not None:
        packs = recorded
    # an eInstant run made before eInstants had the neighbour rule by default (no `blocks`) was made
    # without it: held to no rule, unless the spec states blocks (step 5 then refuses the manifest)
    legacy = manifest.kind != "printed" and recorded is None and (spec is None or packs.size is None)
    imaging = imaging_jobs(manifest, spec) or {}  # step 9's imaging checks run with steps 2 to 6
    jobs: list[PoolJob] = [(folder, p, manifest.rules, manifest.kind, manifest.tickets_per_book, number, play,
                            manifest, None if legacy else for_pool(packs, p.price_cents), whose,
                            imaging.get(p.id))
                           for p in manifest.pools]
    n, total = len(jobs), len(jobs) + 3

    def tell(done: int, what: str) -> None:
        if r.progress is not None:
            r.progress(done, total, what)

    tell(0, f"steps 2-6 and 8: {n} pool file(s)")
    ticks = iter(range(1, n + 1))
    pools = _pool_results(jobs, r.workers, lambda p: tell(next(ticks), f"steps 2-6 and 8: pool {p} checked"),
                          r.early)
    stats: list[tuple[PoolEntry, PoolStatistics | Lines]] = []
    pack_lines: list[tuple[Step, str, str, str]] = []
    imaged: dict[str, ImagingOutcome] = {}
    for pool, (result, pool_stats, lines, pool_image) in zip(manifest.pools, pools, strict=True):
        for s, (status, message) in sorted(result.items()):
            step[s].add(status, message, f"pool {pool.id}")
        stats.append((pool, pool_stats if pool_stats is not None else []))
        pack_lines += [(which, verdict, said, f"pool {pool.id}") for which, verdict, said in lines]
        if pool_image is not None:
            imaged[pool.id] = pool_image
    step[Step.COMPLETENESS].add(*attempt(Step.COMPLETENESS, check_run_identities, manifest))
    if manifest.kind == "printed":
        step[Step.COMPLETENESS].add(*attempt(Step.COMPLETENESS, check_book_numbers, folder, manifest.pools,
                                             manifest.tickets_per_book, spec_slots(spec, manifest)))
        printed = manifest.doc.get("print", {})
        if "book_key_check" in printed:  # books numbered under a key held apart from the seed
            step[Step.COMPLETENESS].add(*attempt(Step.COMPLETENESS, check_book_key, folder, manifest.pools,
                                                 manifest.tickets_per_book, printed, manifest.rules,
                                                 book_key))
        elif book_key is not None:
            step[Step.COMPLETENESS].add("fail", "--book-key given, but the run's book numbers come from its "
                                                "seed (the manifest names no book key)")

    for which, verdict, said, pool_id in pack_lines:  # computed in the workers (packs, eInstant blocks)
        step[which].add(verdict, said, pool_id)
    step[Step.FIGURES].add(*attempt(Step.FIGURES, check_totals, manifest))
    step[Step.FIGURES].add(*attempt(Step.FIGURES, check_fields, manifest))
    if spec is not None:
        step[Step.FIGURES].add(*attempt(Step.FIGURES, check_against_spec, manifest, spec))
        if manifest.kind == "printed" or packs.table == "blocks" or recorded is not None:  # eInstant blocks
            paying = [(t.id, t.prize_cents) for p in manifest.pools for t in p.tiers]
            step[Step.FIGURES].add(*attempt(Step.FIGURES, check_recorded_packs, recorded, packs, paying))
    elif "ceremony" not in manifest.doc:
        step[Step.FIGURES].add("pass", "no --spec given: checked against the manifest only")
    if "ceremony" in manifest.doc or party_keys:  # the spec the parties bound before anyone committed
        given = hashlib.sha256(Path(r.spec).read_bytes()).hexdigest() if r.spec is not None else None
        step[Step.FIGURES].add(*attempt(Step.FIGURES, check_bound, manifest, given, party_keys))
    if bundles or "ceremony" in manifest.doc:  # with none given, says what is not looked for
        step[Step.FIGURES].add(*attempt(Step.FIGURES, check_bundles, manifest, bundles, earlier, key, data))

    tell(n, "step 8: statistics")
    for status, message, where in statistics_lines(stats, len(manifest.pools),  # the pools' from the workers
                                                   step[Step.STATISTICS].figures, manifest.sign):
        step[Step.STATISTICS].add(status, message, where)
    tell(n + 1, "step 9: deliverables")
    for status, message in check_deliverables(folder, manifest, keys, spec, r.reveal, imaged):
        step[Step.DELIVERABLES].add(status, message)

    tell(n + 2, "step 7: reproduction")
    reproduction = step[Step.REPRODUCTION]
    lead, option = "", "--seed-file"
    if seed is not None and "ceremony" in manifest.doc:  # a seed file cannot show it came from the ceremony
        reproduction.add("fail", seed_file_for_ceremony(manifest.doc["ceremony"]))
        seed = None
    if ceremony_doc is not None:  # the seed from the reveals, checked against the manifest's ceremony
        status, found = attempt(Step.REPRODUCTION, ceremony_seed, manifest, ceremony_doc, party_keys)
        seed, message = found if isinstance(found, tuple) else (None, found)  # passed: (seed, what)
        reproduction.add(status, message)
        lead, option = f"{message}; ", "--ceremony"
    if seed is not None and r.spec is not None and r.regenerate is not None:
        reproduction.add(*attempt(Step.REPRODUCTION, check_reproduction, folder, manifest, seed, r.spec,
                                  r.regenerate, book_key))
    elif seed is not None:
        reproduction.add(*attempt(Step.REPRODUCTION, check_seed, folder, manifest, seed, spec, book_key))
        if reproduction.status == "pass":
            why = (f"this verifier has no generator (`poolgen verify {option}` regenerates them)"
                   if r.regenerate is None else "give --spec to regenerate them")
            reproduction.add("skip", f"{lead}seed matches the commitment; pools not regenerated: {why}")
            reproduction.required = False
    tell(total, "done")
    return report
