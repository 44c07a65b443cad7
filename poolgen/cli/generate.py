"""`poolgen generate`: build a game's pools into a new run folder."""

from __future__ import annotations

import json
import os
import signal
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from poolgen.cli.common import err_console, reports_errors, say
from poolgen.cli.keys import ask_passphrase
from poolgen.cli.seed import Entropy
from poolgen.cli.validate import (
    HighTierPrize,
    HighValidationKey,
    ValidationKey,
    parse_threshold,
    validation_keys,
)
from poolgen.deliverables import who_gets_what
from poolgen.errors import SeedError, SigningKeyError
from poolgen.fsutil import check_run_id, ensure_folder, ensure_new
from poolgen.generate import STEPS, generate
from poolgen.keys import Signer
from poolgen.seeds import fresh_seed, parse_entropy, read_seed_file, write_seed_file
from poolgen.spec import load_spec


def _interrupt(signum, frame):  # SIGTERM unwinds like Ctrl-C, so staged folders are removed
    raise KeyboardInterrupt


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
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest as JSON.")] = False,
    key: Annotated[Path | None, typer.Option(
        "--key", metavar="FILE", help="Private key that signs the run (manifest.sig); asks for its "
                                      "passphrase if it is encrypted.")] = None,
    unsigned: Annotated[bool, typer.Option(
        "--unsigned", help="Write a run without a signature (the manifest says so).")] = False,
    validation_key: ValidationKey = None,
    high_validation_key: HighValidationKey = None,
    high_tier_prize: HighTierPrize = None,
) -> None:
    """Build pools with exact tier counts in a cryptographically shuffled order, each ticket laid
    out, one Parquet file per pool plus manifest.json, written atomically into OUT/RUN_ID."""
    signal.signal(signal.SIGTERM, _interrupt)
    spec = load_spec(spec_file)
    now = datetime.now(UTC).replace(microsecond=0)
    run_id = run_id or f"{spec.rules}-{now:%Y%m%dT%H%M%SZ}"
    check_run_id(run_id)
    ids = pool or [p.id for p in spec.pools]
    for pid in ids:
        spec.pool(pid)
    ensure_folder(out)
    ensure_new(out / run_id)
    if seed_file is not None:
        if entropy:
            raise SeedError("--entropy makes a new seed; it cannot be combined with --seed-file")
        seed = read_seed_file(seed_file)
    signer = _signer(key, unsigned)  # before anything is written
    keys = validation_keys(spec, validation_key, high_validation_key)
    threshold = parse_threshold(high_tier_prize)
    fresh = seed_file is None
    if fresh:
        seed = fresh_seed(parse_entropy(entropy or []))
        seed_file = out / f"{run_id}.seed"
        write_seed_file(seed_file, seed)
    try:
        result = _build(spec, seed, now, out, run_id, ids, workers or os.cpu_count() or 1, signer,
                        keys, threshold)
    except BaseException:
        if fresh:  # no run was made from this seed: leave nothing behind
            seed_file.unlink(missing_ok=True)
        raise
    if fresh:
        say(f"new seed saved to {seed_file} (mode 0600); keep it secret and safe")
    if as_json:
        typer.echo(json.dumps(result.manifest, indent=2, sort_keys=True))
    else:
        t = result.manifest["totals"]
        typer.echo(f"run {result.folder}: {t['pools']} pool(s), {t['tickets']:,} tickets, "
                   f"{t['winners']:,} winners, payout {t['payout_pct']}%")
    say(f"signed by key {signer.fingerprint} (manifest.sig)" if signer else "unsigned run (--unsigned)")
    for line in who_gets_what({f["role"] for f in result.manifest.get("deliverables", [])}):
        say(line)


def _build(spec, seed: bytes, now: datetime, out: Path, run_id: str, ids: list[str], n_workers: int,
           signer: Signer | None, keys=None, threshold: int | None = None):
    """Generate with a progress bar per pool and one for the whole run."""
    with Progress(TextColumn("{task.description:>12}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err_console, transient=False) as bars:
        overall = bars.add_task("all pools", total=len(ids) * len(STEPS))
        tasks = {pid: bars.add_task(pid, total=len(STEPS)) for pid in ids}
        done = dict.fromkeys(ids, 0)

        def progress(pid: str, n: int) -> None:
            bars.update(overall, advance=n - done[pid])
            done[pid] = n
            bars.update(tasks[pid], completed=n)

        return generate(spec, seed, now=now, out=out, run_id=run_id, pool_ids=ids,
                        workers=n_workers, progress=progress,
                        signature=signer.manifest_entry() if signer else None,
                        finish=signer.sign_run if signer else None,
                        validation_keys=keys, high_tier_cents=threshold)


def _signer(key: Path | None, unsigned: bool) -> Signer | None:
    if key is not None and unsigned:
        raise SigningKeyError("give --key FILE or --unsigned, not both")
    if key is None and not unsigned:
        raise SigningKeyError("refusing to write an unsigned run; give --key FILE or --unsigned")
    return Signer.from_file(key, ask_passphrase) if key is not None else None
