"""`poolgen generate`: build a game's pools into a new run folder."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from audit.interrupts import Early
from poolgen.cli.common import echo, err_console, reports_errors, say
from poolgen.cli.generated import SeedSource, run_document
from poolgen.cli.prompts import ask_passphrase
from poolgen.cli.seed import Entropy
from poolgen.deliverables.roles import who_gets_what
from poolgen.errors import OutputError, RunError, SeedError, SigningKeyError, SpecError
from poolgen.files.leftovers import pending_seed_name, sweep
from poolgen.files.read import READABLE_SECRET_FLAG, display
from poolgen.files.write import check_run_id, ensure_folder, ensure_new, fsync_folder, present
from poolgen.game.model import Game, Printed
from poolgen.interrupts import Interrupted, deferred, kept, pause_point
from poolgen.limits import available_memory, pool_memory, workers_that_fit
from poolgen.money import USD, Currency, parse_printed
from poolgen.run.provenance import code_entry
from poolgen.seeds.seed import fresh_seed, parse_entropy, read_seed_file, write_seed_file

if TYPE_CHECKING:  # types only: the functions below import these modules when they run
    from poolgen.run.generate import GenerateRequest, RunResult
    from poolgen.run.signing import Signer

# The generator, the loader and the cryptography are imported by the functions that use them, not with
# this module: polars, numpy and cryptography would otherwise load with every poolgen command, --help
# included (start-up time, docs/scaling.md).

ValidationKey = Annotated[Path | None, typer.Option(
    "--validation-key", metavar="FILE",
    help="Low-tier validation key (`poolgen keys validation new`): writes validation-low.bin.")]
HighValidationKey = Annotated[Path | None, typer.Option(
    "--high-validation-key", metavar="FILE",
    help="High-tier validation key, a different one: writes validation-high.bin.")]
BookKey = Annotated[Path | None, typer.Option(
    "--book-key", metavar="FILE",
    help="A book key held apart from the seed (made like a validation key, by another party than the "
         "seed's): printed book numbers are its permutation, not the seed's (docs/validation.md).")]
HighTierPrize = Annotated[str | None, typer.Option(
    "--high-tier-prize", metavar="AMOUNT",
    help="Prizes at or above AMOUNT (e.g. \"600.00\") are high-tier. Default: the spec's "
         "printed.high_tier_prize, else 600.00.")]


def validation_keys(game: Game, low: Path | None, high: Path | None,
                    allow_readable: bool = False) -> tuple[bytes, bytes] | None:
    """Both keys or neither; they must differ; printed games only."""
    from poolgen.deliverables.validation import ValidationError, read_validation_key  # lazy: start-up time

    if low is None and high is None:
        return None
    if low is None or high is None:
        raise ValidationError("give both --validation-key and --high-validation-key, or neither")
    if not isinstance(game.sales, Printed):
        raise ValidationError(f"{game.file}: validation files are for printed games; an eInstant's "
                              "pool file is its serving order")
    keys = (read_validation_key(low, allow_readable), read_validation_key(high, allow_readable))
    if keys[0] == keys[1]:
        raise ValidationError("--validation-key and --high-validation-key are the same key; use two")
    return keys


def _book_key(game: Game, path: Path | None, keys: tuple[bytes, bytes] | None,
              allow_readable: bool = False) -> bytes | None:
    """The book key: printed games only, and not one of the validation keys."""
    from poolgen.deliverables.validation import ValidationError, read_validation_key  # lazy: start-up time

    if path is None:
        return None
    if not isinstance(game.sales, Printed):
        raise ValidationError(f"{game.file}: a book key numbers a printed order's books; an eInstant "
                              "has none")
    key = read_validation_key(path, allow_readable)
    if keys is not None and key in keys:
        raise ValidationError("--book-key is a validation key; the book key is another, held apart")
    return key


def parse_threshold(value: str | None, currency: Currency = USD) -> int | None:
    """--high-tier-prize as cents: an amount bare or in the game's currency ('600', '£600.00')."""
    from poolgen.deliverables.validation import ValidationError  # lazy: start-up time

    if value is None:
        return None
    try:
        cents, _ = parse_printed(value, currency)
    except ValueError as exc:  # not an amount, or fractions of a cent: said (a broad except hid why)
        raise ValidationError(f"--high-tier-prize {value!r}: {exc}; give an amount such as 600.00") from None
    if cents <= 0:
        raise ValidationError(f"--high-tier-prize {value!r}: give an amount above 0, such as 600.00")
    return cents



@reports_errors
def generate_cmd(
    spec_file: Annotated[Path, typer.Argument(metavar="SPEC", help="The game's spec file.")],
    out: Annotated[Path, typer.Option("--out", help="Folder that receives the new run folder.")] = Path(
        "outputs"),
    pool: Annotated[list[str] | None, typer.Option(
        "--pool", help="A pool id to build (repeatable). Default: every pool of the order.")] = None,
    seed_file: Annotated[Path | None, typer.Option(
        "--seed-file", help="Secret seed (64 hex digits). Default: a fresh seed, saved beside the "
                            "run folder as RUN_ID.seed (mode 0600).")] = None,
    entropy: Entropy = None,
    workers: Annotated[int, typer.Option(
        "--workers", min=0, help="Pools built at once (0: one per CPU core).")] = 0,
    run_id: Annotated[str | None, typer.Option(
        "--run-id", help="Name of the run folder. Default: RULES-UTCTIME.")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print what was made as one JSON document: the run folder, the seed's file (never "
        "the seed), the pools, every file written with its SHA-256, and the manifest (docs/manifest.md).")
    ] = False,
    key: Annotated[Path | None, typer.Option(
        "--key", metavar="FILE", help="Private key that signs the run (manifest.sig); asks for its "
                                      "passphrase if it is encrypted.")] = None,
    unsigned: Annotated[bool, typer.Option(
        "--unsigned", help="Write a run without a signature (the manifest says so).")] = False,
    ceremony: Annotated[Path | None, typer.Option(
        "--ceremony", metavar="FILE", help="A sealed seed ceremony (poolgen ceremony seal): its seed is "
                                           "used, only for the spec, code, pools and run it binds, once; "
                                           "its transcript is recorded in the manifest.")] = None,
    allow_readable_secret: Annotated[bool, typer.Option(
        READABLE_SECRET_FLAG, help="Use a seed file, private key, validation or book key even if its "
                                   "group or others may read it (refused otherwise).")] = False,
    validation_key: ValidationKey = None,
    high_validation_key: HighValidationKey = None,
    high_tier_prize: HighTierPrize = None,
    book_key: BookKey = None,
) -> None:
    """Build pools with exact tier counts in a cryptographically shuffled order, each ticket laid
    out, one Parquet file per pool plus manifest.json, written atomically into OUT/RUN_ID."""
    early = _early_workers(workers, pool)  # first: their imports overlap this command's own
    try:
        with deferred():  # a signal while modules load is raised once they have: never lost in an import
            from poolgen.deliverables.validation import key_check  # lazy: start-up time
            from poolgen.loader import load_spec  # lazy: start-up time
            from poolgen.run.generate import GenerateRequest  # lazy: start-up time
            from poolgen.seeds.ceremony import Binding  # lazy: start-up time
            from poolgen.seeds.ceremony_file import load as load_ceremony  # lazy: start-up time
            from poolgen.seeds.ceremony_file import save as save_ceremony  # lazy: start-up time

        game = load_spec(spec_file)
        now = datetime.now(UTC).replace(microsecond=0)
        sealed = load_ceremony(ceremony) if ceremony is not None else None
        if sealed is not None and run_id is None:
            run_id = sealed.transcript["run_id"]  # the run the ceremony binds
        if run_id is None:  # "" is given, and refused: an unset shell variable is no run id
            run_id = f"{game.id}-{now:%Y%m%dT%H%M%SZ}"
        check_run_id(run_id)
        ids = pool or [p.id for p in game.pools]
        for pid in ids:
            game.pool(pid)
        if len(set(ids)) != len(ids):  # as generate() says it, but before OUT is made
            raise SpecError(f"{game.file}: a pool id is named twice: {', '.join(ids)}")
        ensure_new(out / run_id)  # looked at, nothing made: every input is read before OUT is created
        _readable_path(out / run_id)
        keys = validation_keys(game, validation_key, high_validation_key, allow_readable_secret)
        books = _book_key(game, book_key, keys, allow_readable_secret)
        if ceremony is not None and sealed is not None:
            if seed_file is not None or entropy:
                raise SeedError("--ceremony gives the seed; it cannot be combined with --seed-file or "
                                "--entropy")
            seed = sealed.sealed_seed()
            sealed.check_binding(Binding(game.sha256, code_entry()["sha256"], game.id, tuple(ids), run_id,
                                         key_check(books) if books is not None else None,
                                         printed=(game.number, game.regulation)))
            seed_file = ceremony  # the seed's source: no new seed file
        elif seed_file is not None:
            if entropy:
                raise SeedError("--entropy makes a new seed; it cannot be combined with --seed-file")
            seed = read_seed_file(seed_file, allow_readable_secret)
        signer = _signer(key, unsigned, allow_readable_secret)  # before anything is written
        code_entry()  # the code hash too: a package it refuses (a symbolic link in it) makes no run
        threshold = parse_threshold(high_tier_prize, game.currency)
        n_workers = _workers_for_memory(game, ids, workers or os.cpu_count() or 1)
        ensure_folder(out)  # every input is read: a refused one leaves no new folder behind
        for line in sweep(out):  # what killed runs left here: reported, never reused
            say(line)
        ensure_new(out / run_id)
        fresh = seed_file is None
        held, placed = None, []  # placed: the run folder is in place (set with its rename)

        def committed(run: Path) -> None:
            placed.append(run)
            if fresh:
                _name_seed(out, run_id)
            if ceremony is not None and sealed is not None:  # the ceremony has seeded its one run
                sealed.run = run_id
                save_ceremony(ceremony, sealed)

        if fresh:
            seed = fresh_seed(parse_entropy(entropy or []))
            seed_file = out / f"{run_id}.seed"
            if seed_file.exists():
                raise SeedError(f"{seed_file}: seed file already exists; not overwriting it (give --run-id)")
            # The seed is on disk (fsynced, 0600) before the run exists, under a provisional name that it
            # leaves for RUN_ID.seed together with the run folder's rename (`committed`).
            try:
                held = write_seed_file(out / pending_seed_name(run_id), seed, keep_locked=True)
            except OutputError:
                if not present(out / pending_seed_name(run_id)):  # what a killed run left is swept by now
                    raise
                raise OutputError(f"{out / run_id}: another generate of this run is under way (its fresh "
                                  "seed is not yet named); give another --run-id") from None
        try:
            request = GenerateRequest(game, seed, now=now, out=out, run_id=run_id, pool_ids=ids,
                                      workers=n_workers,
                                      signature=signer.manifest_entry() if signer else None,
                                      ceremony=sealed.manifest_entry() if sealed else None,
                                      validation_keys=keys, high_tier_cents=threshold, book_key=books)
            result = _build(request, signer, committed, early)
            pause_point("committed")
            source: SeedSource = "fresh" if fresh else "ceremony" if ceremony is not None else "seed-file"
            assert seed_file is not None  # the fresh seed's, the --seed-file or the ceremony's
            _report(result, source, seed_file, as_json, signer)
        except KeyboardInterrupt as exc:
            if placed:  # interrupted once the run was in place: it and its seed are kept
                raise Interrupted(getattr(exc, "signum", signal.SIGINT), f"run {out / run_id} was complete "
                                  "and is kept" + (f", with its seed {seed_file}" if fresh else "")) from None
            raise
        finally:
            if held is not None:
                if not placed:  # no run was made from this seed: leave nothing behind
                    (out / pending_seed_name(run_id)).unlink(missing_ok=True)
                os.close(held)
    finally:
        if early is not None:  # not taken by the run (a refusal, an error, an interrupt): killed
            early.close()


def _report(result: RunResult, source: SeedSource, seed_file: Path, as_json: bool,
            signer: Signer | None) -> None:
    if source == "fresh":
        say(f"new seed saved to {seed_file} (mode 0600); keep it secret and safe")
    if as_json:  # docs/manifest.md, "What `generate --json` prints"
        doc = run_document(result.folder, result.manifest, source, seed_file)
        typer.echo(json.dumps(doc, indent=2, sort_keys=True))
    else:
        t = result.manifest["totals"]
        echo(f"run {result.folder}: {t['pools']} pool(s), {t['tickets']:,} tickets, "
                   f"{t['winners']:,} winners, payout {t['payout_pct']}%")
    say(f"signed by key {signer.fingerprint} (manifest.sig)" if signer else "unsigned run (--unsigned)")
    for line in who_gets_what({f["role"] for f in result.manifest.get("deliverables", [])},
                              signed=signer is not None):
        say(line)


def _workers_for_memory(game: Game, ids: list[str], workers: int) -> int:
    """Workers whose pools fit in the memory available now (checked before anything is allocated)."""
    spots = game.play.spots()
    needs = [pool_memory(game.pool(pid).tickets, game.pool(pid).play_areas, spots) for pid in ids]
    available = available_memory()
    fit = workers_that_fit(needs, workers, available)
    if fit == 0:
        assert available is not None  # with the memory unknown, every worker fits
        raise RunError(f"{game.file}: pool {ids[needs.index(max(needs))]} needs about "
                       f"{max(needs) / 2**30:.1f} GiB of memory to build; {available / 2**30:.1f} GiB is "
                       "available")
    if fit < min(workers, len(ids)) and available is not None:
        say(f"building {fit} pool(s) at a time, not {min(workers, len(ids))}: the memory available "
            f"({available / 2**30:.1f} GiB) holds no more")
    return fit


def _early_workers(workers: int, pools: list[str] | None) -> Early | None:
    """The worker processes a parallel run uses, started before anything else (docs/scaling.md, issue
    28): one fewer than the pools built at once (this process builds pools too), and no more than the
    pools named, or the cores, less one. The run takes them if it can use as many (the spec and the
    memory decide), else ends them and starts its own."""
    import multiprocessing as mp

    slots = min(workers or os.cpu_count() or 1, os.cpu_count() or 1) - 1
    if pools:
        slots = min(slots, len(pools) - 1)
    if slots < 1:
        return None
    progress = mp.get_context("spawn").Queue()  # each worker's progress, as poolgen/run/generate.py's own
    return Early(slots, "poolgen.run.generate:worker_start", args=(progress,))


def _readable_path(folder: Path) -> None:
    """A run's Parquet files are read by paths polars takes as UTF-8 text only (audit/read/parquet.py
    `literal`): a run where the path is not (bytes a shell passes as they are) no verify could read."""
    try:
        os.path.abspath(folder).encode("utf-8")
    except UnicodeEncodeError:
        said = "a run's Parquet files are read by UTF-8 paths only (no verify could read it)"
        raise OutputError(f"{display(folder)}: the path is not UTF-8 text, and {said}; choose another "
                          "--out") from None


def _name_seed(out: Path, run_id: str) -> None:
    """The run folder is in place: its fresh seed takes its final name (never removed after)."""
    pending, final = out / pending_seed_name(run_id), out / f"{run_id}.seed"
    try:
        os.link(pending, final)
        kept(final)
        pending.unlink()
        fsync_folder(out)
    except OSError as exc:
        raise OutputError(f"{final}: cannot name the run's seed: {exc.strerror or exc}; it is kept as "
                          f"{pending}") from None


def _build(request: GenerateRequest, signer: Signer | None, committed: Callable[[Path], None],
           early: Early | None = None) -> RunResult:
    """Generate with a progress bar per pool and one for the whole run."""
    from poolgen.run.generate import STEPS, generate  # lazy: start-up time

    ids = [p.id for p in request.game.pools] if request.pool_ids is None else request.pool_ids
    with Progress(TextColumn("{task.description:>12}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err_console, transient=False,
                  disable=not err_console.is_terminal) as bars:  # bars are for people watching
        overall = bars.add_task("all pools", total=len(ids) * len(STEPS))
        tasks = {pid: bars.add_task(pid, total=len(STEPS)) for pid in ids}
        done = dict.fromkeys(ids, 0)

        def progress(pid: str, n: int) -> None:
            bars.update(overall, advance=n - done[pid])
            done[pid] = n
            bars.update(tasks[pid], completed=n)

        try:
            return generate(request, progress=progress, finish=signer.sign_run if signer else None,
                            committed=committed, early=early)
        except BaseException:
            bars.live.transient = True  # a failed run leaves only its one-line error on stderr
            raise


def _signer(key: Path | None, unsigned: bool, allow_readable: bool) -> Signer | None:
    from poolgen.run.signing import Signer  # lazy: start-up time (cryptography)

    if key is not None and unsigned:
        raise SigningKeyError("give --key FILE or --unsigned, not both")
    if key is None and not unsigned:
        raise SigningKeyError("refusing to write an unsigned run; give --key FILE or --unsigned")
    if key is None:
        return None
    path = key
    return Signer.from_file(key, lambda: ask_passphrase(key=path), allow_readable)
