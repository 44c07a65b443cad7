"""The verifier's checklist: a run folder proven from its files, a public key, and nothing else.

    (1) the Ed25519 signature over manifest.json's exact bytes, with the given public key;
    (2) every listed file exists with the stated size and SHA-256; no unlisted file is present;
    (3) every pool is complete: positions 0..N-1 in order, every ticket identity the one its
        position gives (docs/pool-files.md; printed: its book and ticket number, each book's tickets
        contiguous and numbered 0..per_book-1, audit/books.py), no ticket id in two pools (printed:
        no book number in two),
        every Merkle salt 32 hex digits and a sample of them distinct (that they are random bits
        from the seed only step 7 can prove);
    (4) every ticket's layout evaluates, with audit.styles from the manifest's `play` entry (a run
        without one is refused), to the prize stored with it;
    (5) recounted tier counts, winners, prize cost, odds and payout equal the manifest (and, with
        a spec, the spec; the spec's SHA-256 must be the manifest's);
    (6) every pool's Merkle root recomputes;
    (7) with a seed file: the seed matches the commitment, and regenerating reproduces every pool
        file byte for byte (audit/reproduce.py; the generator is passed in, never imported); with a
        ceremony file instead, the seed is first derived from its reveals, each checked against the
        manifest's commitments (audit/ceremony.py);
    (8) every pool's statistics pass at 99% confidence for the run: positions, winners per book or
        block, runs, and the layout no-information tests of the game's contract (audit/stats.py);
    (9) printed runs: imaging files, pack list and, given the validation keys, the validation files
        re-derived ticket by ticket (audit/deliverables.py, docs/validation.md).

Each step is a function that returns what it checked or raises VerificationError(step, reason).
`verify_run` runs them all: a failure never stops the others; a step that cannot run without an
earlier one is reported "skip" with the step it needs. Steps 2 to 6 run per pool, optionally in
several processes.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import polars as pl

from audit.checklist import TITLES, Outcome, Report, StepResult
from audit.errors import UnusableInput, VerificationError
from audit.interrupts import deferred, starting_workers, stop, worker_init
from audit.read.limits import read_manifest_bytes
from audit.read.manifest import MANIFEST, Manifest, ManifestError, PoolEntry, fingerprint, load_public_key
from audit.read.spec import read_spec
from audit.stats.step import check_statistics
from audit.steps.books import check_book_numbers
from audit.steps.ceremony import ceremony_seed, read_ceremony
from audit.steps.deliverables import check_deliverable_files, check_deliverables, read_key
from audit.steps.figures import check_against_spec, check_figures, check_totals
from audit.steps.files import check_file, check_listing, check_signature
from audit.steps.identity import check_complete, check_run_identities, expected_identities
from audit.steps.layouts import check_layouts
from audit.steps.merkle_roots import check_merkle
from audit.steps.reproduction import Regenerate, check_commitment, check_reproduction, read_seed

__all__ = ["Report", "StepResult", "check_complete", "check_run_identities", "expected_identities",
           "verify_run"]


# ---- the runner ---------------------------------------------------------------------------------

def _attempt(step: int, check, *args) -> Outcome:
    try:
        return "pass", check(*args)
    except VerificationError as exc:
        return "fail", exc.reason
    except Exception as exc:  # an auditor's tool reports, it does not crash on a hostile file
        return "fail", f"could not be checked: {type(exc).__name__}: {exc}"


def pool_outcomes(folder: Path, pool: PoolEntry, rules: str, kind: str,
                  per_book: int | None, number: object = None,
                  play: dict | None = None) -> dict[int, Outcome]:
    """Steps 2 to 6 for one pool (reads the pool file once)."""
    out: dict[int, Outcome] = {2: _attempt(2, check_file, folder, pool)}
    if not (folder / pool.file).is_file():
        return out | {s: ("skip", f"needs step 2: {pool.file} is missing") for s in (3, 4, 5, 6)}
    try:
        table = pl.read_parquet(folder / pool.file)
    except Exception as exc:
        out[3] = ("fail", f"{pool.file} cannot be read as Parquet: {type(exc).__name__}: {exc}")
        return out | {s: ("skip", f"needs step 3: {pool.file} cannot be read") for s in (4, 5, 6)}
    out[3] = _attempt(3, check_complete, table, pool, kind, per_book, number)
    out[4] = _attempt(4, check_layouts, table, pool, rules, play)
    out[5] = _attempt(5, check_figures, table, pool)
    out[6] = _attempt(6, check_merkle, table, pool)
    return out


def _pool_job(args) -> dict[int, Outcome]:
    return pool_outcomes(*args)


def verify_run(run: Path, public_key: Path | None, *, spec: Path | None = None, seed_file: Path | None = None,
               workers: int = 1, regenerate: Regenerate | None = None,
               ceremony: Path | None = None, allow_readable_secret: bool = False,
               validation_key: Path | None = None, high_validation_key: Path | None = None) -> Report:
    """Run the checklist on a run folder. Raises UnusableInput when nothing can be checked.

    `regenerate` is the generator step 7 reproduces the pools with (see audit/reproduce.py);
    without it step 7 checks the seed commitment only."""
    folder = Path(run)
    if not folder.is_dir():
        raise UnusableInput(f"{folder}: run folder not found")
    if not (folder / MANIFEST).exists():
        raise UnusableInput(f"{folder}: no {MANIFEST} in the run folder")
    data = read_manifest_bytes(folder / MANIFEST)
    key = load_public_key(public_key) if public_key is not None else None
    spec_figures = read_spec(spec) if spec is not None else None
    seed = None
    if seed_file is not None and ceremony is not None:
        raise UnusableInput("give --seed-file or --ceremony, not both: the ceremony gives the seed")
    ceremony_doc = read_ceremony(ceremony) if ceremony is not None else None
    if seed_file is not None:
        if spec is None:
            raise UnusableInput("--seed-file needs --spec: regenerating the pools needs the game's spec")
        seed = read_seed(seed_file, allow_readable_secret)

    keys = {"low": read_key(validation_key) if validation_key else None,
            "high": read_key(high_validation_key) if high_validation_key else None}
    steps = [StepResult(n, TITLES[n]) for n in TITLES]
    steps[8].required = False  # its parts without a key are skipped, not failed
    report = Report(folder, fingerprint(key) if key else None, steps)
    try:
        manifest: Manifest | None = Manifest.parse(data)
        unreadable = ""
    except ManifestError as exc:
        manifest, unreadable = None, str(exc)

    if key is None:
        steps[0].add("skip", "no public key given")
        steps[0].required = False
    else:
        steps[0].add(*_attempt(1, check_signature, folder, data, manifest, key))
    if seed is None and ceremony_doc is None:
        steps[6].add("skip", "not requested (give --seed-file and --spec, or --ceremony)")
        steps[6].required = False
    if manifest is None:
        steps[0].add("fail", f"manifest.json is not a valid manifest: {unreadable}")
        for s in steps[1:] if seed is not None or ceremony_doc is not None else steps[1:6] + steps[7:]:
            s.add("skip", "needs a readable manifest.json (step 1)")
        return report

    steps[1].add(*_attempt(2, check_listing, folder, manifest))
    if manifest.doc.get("deliverables"):
        steps[1].add(*_attempt(2, check_deliverable_files, folder, manifest))
    number = manifest.doc["game"].get("number")
    play = manifest.doc.get("play")  # a style-based run (docs/styles/play.md)
    jobs = [(folder, p, manifest.rules, manifest.kind, manifest.tickets_per_book, number, play)
            for p in manifest.pools]
    if workers > 1 and len(jobs) > 1:
        context = mp.get_context("spawn")
        # largest files first, so that no worker starts a big pool while the others are finishing
        order = sorted(range(len(jobs)), key=lambda i: -manifest.pools[i].file_bytes)
        pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context,
                                   initializer=worker_init)
        try:
            with starting_workers():  # each submit may start a worker process
                futures = {i: pool.submit(_pool_job, jobs[i]) for i in order}
            outcomes = [futures[i].result() for i in range(len(jobs))]
        except BaseException:
            stop(pool)  # an interrupt: no worker goes on reading
            raise
        with deferred():  # the pool's semaphores are released by finalizers: a signal inside one is lost
            pool.shutdown()
            del pool, futures
            gc.collect()
    else:
        outcomes = [_pool_job(j) for j in jobs]
    for pool, result in zip(manifest.pools, outcomes, strict=True):
        for step, (status, message) in sorted(result.items()):
            steps[step - 1].add(status, message, f"pool {pool.id}")
    steps[2].add(*_attempt(3, check_run_identities, manifest))
    if manifest.kind == "printed":
        steps[2].add(*_attempt(3, check_book_numbers, folder, manifest.pools, manifest.tickets_per_book))

    steps[4].add(*_attempt(5, check_totals, manifest))
    if spec_figures is not None:
        steps[4].add(*_attempt(5, check_against_spec, manifest, spec_figures))
    else:
        steps[4].add("pass", "no --spec given: checked against the manifest only")

    for status, message, where in check_statistics(folder, manifest):
        steps[7].add(status, message, where)
    for status, message in check_deliverables(folder, manifest, keys, spec_figures):
        steps[8].add(status, message)

    lead, option = "", "--seed-file"
    if ceremony_doc is not None:  # the seed from the reveals, checked against the manifest's ceremony
        status, found = _attempt(7, ceremony_seed, manifest, ceremony_doc)
        seed, message = found if status == "pass" else (None, found)
        steps[6].add(status, message)
        lead, option = f"{message}; ", "--ceremony"
    if seed is not None and spec is not None and regenerate is not None:
        steps[6].add(*_attempt(7, check_reproduction, folder, manifest, seed, spec, regenerate))
    elif seed is not None:
        steps[6].add(*_attempt(7, check_commitment, manifest, seed))
        if steps[6].status == "pass":
            why = (f"this verifier has no generator (`poolgen verify {option}` regenerates them)"
                   if regenerate is None else "give --spec to regenerate them")
            steps[6].add("skip", f"{lead}seed matches the commitment; pools not regenerated: {why}")
            steps[6].required = False
    return report

