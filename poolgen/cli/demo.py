"""`poolgen demo`: the main job end to end on an embedded default, for a first look.

It runs the same commands an operator and an auditor would, in order, into one new folder under
`outputs/`: check every spec, make a throwaway signing key, generate one signed pool from a fresh
seed, verify it (every step, reproduction from the seed included), and draw its proof and report.
Nothing here is a shortcut: each step is the command of the same name, but for the report, which draws
the verdict audit's checklist has just reached in the verify step (the same run, key, spec and seed)
instead of running that checklist a second time.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from contextlib import nullcontext, redirect_stdout
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from poolgen.cli.check import check
from poolgen.cli.common import Json, all_specs, echo, reports_errors, say
from poolgen.cli.generate import generate_cmd
from poolgen.cli.proof import proof_cmd
from poolgen.cli.report import report_of_verdict
from poolgen.cli.verify import verify_keeping
from poolgen.errors import OutputError
from poolgen.files.read import READABLE_SECRET_FLAG
from poolgen.files.write import FOLDER_MODE, check_run_id, ensure_folder, staged_folder
from poolgen.game.model import Game
from poolgen.interrupts import Interrupted
from poolgen.seeds.seed import read_seed_file

if TYPE_CHECKING:  # types only: audit.verify's imports cost every command's start-up (docs/scaling.md)
    from audit.verify import Report


def default_game(paths: list[Path]) -> tuple[Game, str]:
    """The embedded default: the spec in specs/ with the smallest pool (ties: the first by file
    name), and that pool. Small, so the demo takes seconds, and a real game, not a toy."""
    from poolgen.loader import load_spec  # lazy: numpy, off every command's start-up (docs/scaling.md)

    games = [load_spec(p) for p in paths]
    game, pool = min(((g, p) for g in games for p in g.pools), key=lambda gp: gp[1].tickets)
    return game, pool.id


_stopped: list[str] = []  # the step running: the one that stopped the demo, if one did


def _step(title: str, fn: Callable[..., object], /, **kwargs: Any) -> None:
    """Run one command; stop the demo (with that command's exit code) if it does not exit 0."""
    say(f"== {title}")
    _stopped[:] = [title.split(" (")[0]]
    try:
        fn(**kwargs)
    except typer.Exit as done:
        if done.exit_code == 1:  # a verdict; an error (exit 2), an interrupt: the command's line alone
            say(f"demo stopped: `{title}` exited {done.exit_code}")
        if done.exit_code:
            raise
    typer.echo("")


@reports_errors
def demo_cmd(
    out: Annotated[Path, typer.Option(
        "--out", help="Folder that receives the demo folder (keys, run, seed, PDFs).")] = Path("outputs"),
    spec_file: Annotated[Path | None, typer.Option(
        "--spec", exists=True, dir_okay=False, metavar="FILE",
        help="A game to demonstrate. Default: the spec in ./specs/ (else the source tree's specs/) "
             "with the smallest pool.")] = None,
    pool: Annotated[str | None, typer.Option(
        "--pool", metavar="ID", help="The pool to build. Default: the spec's smallest pool.")] = None,
    seed_file: Annotated[Path | None, typer.Option(
        "--seed-file", exists=True, dir_okay=False, metavar="FILE",
        help="A seed (64 hex digits, mode 0600) instead of a fresh one: the same pool, and the same "
             "verdict, every time (step 8 refuses about 1% of honest pools by design).")] = None,
    as_json: Json = False,
    allow_readable_secret: Annotated[bool, typer.Option(
        READABLE_SECRET_FLAG, help="Use a --seed-file its group or others may read (refused "
                                   "otherwise).")] = False,
) -> None:
    """Check every spec, then generate, sign, verify, prove and report one pool of a game, in a new
    folder OUT/demo-UTCTIME: a throwaway signing key (keys/), the run folder, its fresh seed
    (RUN.seed, mode 0600; or the --seed-file given, left where it is), proof.pdf and report.pdf. The
    key and seed are for the demo only. With --json, what each step prints goes to standard error and
    standard output holds one JSON document: where each file is, and the verdict (also when a step
    stops the demo: `stopped_at`, `exit_code`). Exit 0: every step passed; 1: a step's verdict failed (a
    figure disagrees, a verify step fails), the folder kept to read; 2: unusable input, nothing kept."""
    from poolgen.loader import load_spec  # lazy: numpy, off every command's start-up (docs/scaling.md)

    now = datetime.now(UTC).replace(microsecond=0)
    if spec_file is None:
        game, default_pool = default_game(all_specs())
    else:
        game = load_spec(spec_file)
        default_pool = min(game.pools, key=lambda p: p.tickets).id
    pool_id = pool or default_pool
    game.pool(pool_id)  # an unknown pool id fails before anything is written
    if seed_file is not None:
        # as generate would refuse it (a device, 0644, not hex), before anything is written
        read_seed_file(seed_file, allow_readable_secret)
    ensure_folder(out)
    folder = out / f"demo-{now:%Y%m%dT%H%M%SZ}"
    if folder.exists():
        raise OutputError(f"{folder}: already exists; run the demo again in a second")
    run_id = f"{game.path.stem}-{pool_id}"
    check_run_id(run_id)
    run = folder / run_id

    where = {"demo": str(folder), "run": str(run)}
    stopped: typer.Exit | None = None
    try:
        with staged_folder(folder, mode=FOLDER_MODE) as staging:  # whole, or nothing under its name
            say(f"demo: writing into {staging}, renamed {folder} once every step has run")
            try:
                with redirect_stdout(sys.stderr) if as_json else nullcontext():  # --json: stdout holds it
                    keys = _steps(game, pool_id, staging, staging / run_id, run_id, seed_file,
                                  allow_readable_secret)
            except typer.Exit as exit_:
                if exit_.exit_code != 1:  # an error (a full disk: exit 2) or an interrupt: nothing is kept
                    raise
                stopped = exit_  # a verdict (a figure disagrees, a step fails): the folder is kept to read
    except Interrupted as exc:  # the demo's own writes (its staging, its rename): nothing under a final name
        raise Interrupted(exc.signum, f"nothing was kept: the demo folder {folder} was not finished") \
            from None
    if stopped is not None:
        if as_json:
            seed = folder / f"{run_id}.seed" if seed_file is None else seed_file
            typer.echo(json.dumps({**where, "seed_file": str(seed) if seed.exists() else None, "ok": False,
                                   "stopped_at": _stopped[-1], "exit_code": stopped.exit_code}, indent=2))
        raise stopped
    keys = replace(keys, private=folder / "keys" / keys.private.name,
                   public=folder / "keys" / keys.public.name)
    seed_file = folder / f"{run_id}.seed" if seed_file is None else seed_file
    if as_json:
        typer.echo(json.dumps({**where, "seed_file": str(seed_file), "private_key": str(keys.private),
                               "public_key": str(keys.public), "fingerprint": keys.fingerprint,
                               "proof": str(folder / "proof.pdf"), "report": str(folder / "report.pdf"),
                               "ok": True, "stopped_at": None, "exit_code": 0}, indent=2))
        return
    echo(f"demo done in {folder}:")
    echo(f"  run folder   {run}  (manifest.json, manifest.sig, pool files)")
    echo(f"  seed         {seed_file}  (secret, mode 0600)")
    echo(f"  keys         {keys.private} (secret, mode 0600), {keys.public}")
    echo(f"  proof        {folder / 'proof.pdf'}")
    echo(f"  report       {folder / 'report.pdf'}")
    typer.echo("")
    echo(f"verdict: VERIFIED: the run's signature, files, {game.name}'s rules and published figures, "
               f"Merkle roots and statistics all check, and the pool regenerates from its seed byte for byte")
    echo("next: read proof.pdf (specimens of every tier: no ticket of the pool) and report.pdf; "
               "then, for a real run, make your own seed and key (`poolgen seed new`, `poolgen keys new`, "
               "kept out of the repository), `poolgen generate specs/GAME.toml --seed-file ... --key ...`, "
               "and `poolgen publish` before sale (README, \"Using it\"; docs/publish-and-reveal.md)")


def _steps(game: Game, pool_id: str, folder: Path, run: Path, run_id: str, seed_file: Path | None,
           allow_readable: bool) -> Any:
    """The demo's commands, in order; the throwaway key pair they made."""
    from poolgen.run.signing import new_key_pair  # lazy: cryptography, off start-up (docs/scaling.md)

    _step("poolgen check", check, specs=None, as_json=False)
    say("== poolgen keys new (a throwaway key for this demo)")
    keys = new_key_pair(folder / "keys")
    echo(f"public key fingerprint: {keys.fingerprint}")
    typer.echo("")
    _step(f"poolgen generate {game.path.name} --pool {pool_id}", generate_cmd, spec_file=game.path,
          out=folder, pool=[pool_id], seed_file=seed_file, entropy=None, workers=0, run_id=run_id,
          as_json=False, key=keys.private, unsigned=False, allow_readable_secret=allow_readable)
    seed_file = folder / f"{run_id}.seed" if seed_file is None else seed_file
    verdicts: list[Report] = []  # audit's report of the verify step, which the report draws
    _step("poolgen verify (every step, reproduction from the seed included)", verify_keeping(verdicts.append),
          run=run, public_key=keys.public, spec=game.path, seed_file=seed_file, as_json=False, workers=0,
          allow_readable_secret=allow_readable)
    _step("poolgen proof", proof_cmd, run=run, out=folder / "proof.pdf", tickets=None, per_tier=1,
          pool=None, spec=game.path)
    _step("poolgen report (the verdict of the verify step, not verified twice)", report_of_verdict, run=run,
          out=folder / "report.pdf", spec=game.path, verdict=verdicts[-1])
    return keys
