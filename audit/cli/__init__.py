"""The auditor's command line: `python -m audit verify RUN ...` and `python -m audit check-proof ...`.

Exit codes: 0 every step passes (a proof is valid), 1 a step fails (a proof is invalid: a signature
that does not verify, say), 2 the input cannot be used (missing run folder, manifest, key, spec or seed
file; check-proof's proof or manifest signature file), 141 standard output's
reader stopped reading (`| head -1`: quietly, as git; audit/pipes.py).
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as Bars

import audit
from audit.cli.commands import HELP_OPTIONS, Commands, examples, help_command
from audit.errors import InvalidProof, MalformedProof, UnusableInput
from audit.interrupts import Early, deferred, ended, install, pause_point, restore
from audit.provenance import code_hash
from audit.read.codehash import ALGORITHMS
from audit.read.limits import MAX_PROOF_BYTES, READABLE_SECRET_FLAG, parse_json, read_bounded

if TYPE_CHECKING:  # types only: their modules load polars and numpy, imported where a command runs
    from audit.steps.reproduction import Regenerate
    from audit.verify import Progress, Report

EXIT_STATUS = (
    "`python -m audit help COMMAND` (or `COMMAND -h`) explains a command.\n\n"
    "Exit status: **0** every step passes (a proof is valid); **1** a step fails (a proof is invalid); "
    "**2** a usage error or input that cannot be used (one line `audit: error: ...`); **130**, **143** "
    "interrupted (SIGINT, SIGTERM); **141** standard output's reader stopped (`| head`).")

app = typer.Typer(rich_markup_mode="markdown", name="audit", no_args_is_help=True, add_completion=False,
                  pretty_exceptions_show_locals=False, cls=Commands, context_settings=HELP_OPTIONS,
                  help="Verify a poolgen run from its files and a public key alone.", epilog=EXIT_STATUS)

PublicKey = Annotated[Path, typer.Option(
    "--public-key", metavar="FILE", help="The signer's Ed25519 public key (PEM): the only thing trusted.")]
Spec = Annotated[Path | None, typer.Option(
    "--spec", metavar="FILE",
    help="The game's spec file: step 5 also compares with it (its SHA-256 must be the manifest's).")]
SeedFile = Annotated[Path | None, typer.Option(
    "--seed-file", metavar="FILE",
    help="The run's seed: step 7 checks the commitment and, under `poolgen verify` (which then needs "
         "--spec), regenerates every pool.")]

Reveal = Annotated[bool, typer.Option(
    "--reveal", help="RUN is a reveal once claims close (docs/publish-and-reveal.md): the manifest, its "
                     "signature and the pool files, without the printer's and validation files, which "
                     "are never published; steps 2 and 9 say what is not there and why.")]

CeremonyFile = Annotated[Path | None, typer.Option(
    "--ceremony", metavar="FILE",
    help="The seed ceremony's file with every reveal (docs/ceremony.md), instead of --seed-file: step 7 "
         "derives the seed from the reveals and checks them against the manifest's commitments.")]


PartyKeys = Annotated[list[str] | None, typer.Option(
    "--party-key", metavar="NAME=FILE",
    help="A ceremony party's public key (PEM) the auditor expects; given for every party, step 7 refuses a "
         "ceremony whose parties or keys differ.")]


Bundles = Annotated[list[Path] | None, typer.Option(
    "--ceremony-bundle", metavar="FILE",
    help="A published ceremony bundle (poolgen ceremony publish) naming this run's game, one per ceremony "
         "found: step 5 checks the run's own shows the manifest's commitments and every other for the run "
         "id or one of its pools was aborted (or is an earlier order this run's ceremony follows).")]


EarlierManifests = Annotated[list[Path] | None, typer.Option(
    "--earlier-manifest", metavar="MANIFEST",
    help="A reorder: the signed manifest.json (manifest.sig beside it) of an earlier order its ceremony "
         "follows (ceremony new --follows); step 5 accepts that order's bundle only with it.")]


def _pairs(items: list[str] | None) -> tuple[tuple[str, Path], ...] | None:
    """NAME=FILE options as (name, path) pairs."""
    if not items:
        return None
    pairs = []
    for item in items:
        name, sep, file = item.partition("=")
        if not sep or not name.strip() or not file.strip():
            raise UnusableInput(f"--party-key {item!r}: write NAME=FILE")  # said in the program's name
        pairs.append((name.strip(), Path(file.strip())))
    return tuple(pairs)


MAX_WORKERS = 256  # processes checking pools at once (a run has at most 64 pools)


def _early_workers(count: int) -> Early | None:
    """The worker processes verify's steps 2 to 6 and 8 use (one fewer than `count`: this process
    checks pools too), started before anything else, so that their imports (audit.verify, scipy.special
    for step 8) overlap this command's own and its reading of the manifest (docs/scaling.md, issue 28).
    audit/verify.py `_pool_results` takes them if the run has pools enough, else ends them. No more
    than the cores less one are started before the run's pools are known (a run has at most 64)."""
    slots = min(count, os.cpu_count() or 1) - 1
    return Early(slots, "audit.interrupts:worker_init", ("audit.verify", "scipy.special")) if slots else None


@contextmanager
def progress_bar(console: Console | None = None) -> Iterator[Progress]:
    """A progress bar on stderr while a long step runs, for people watching a terminal (nothing when
    stderr is a file or a pipe); it is gone once the step ends. Yields the `(done, total, what)`
    callback `VerifyRequest.progress` takes."""
    console = console or Console(stderr=True)
    with Bars(TextColumn("{task.description:<36}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
              console=console, transient=True, disable=not console.is_terminal) as bars:
        task = bars.add_task("starting", total=None)

        def tell(done: int, total: int, what: str) -> None:
            bars.update(task, completed=done, total=total, description=what)

        yield tell


def one_line(message: str) -> str:
    """`message` with each control or other unprintable character escaped: a file name given with a
    newline (or a terminal's escape sequence) never adds a line to a message, nor reaches the terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def _unusable(message: str, prefix: str = "audit") -> typer.Exit:
    typer.echo(f"{prefix}: error: {one_line(message)}", err=True)
    return typer.Exit(2)


def verify_command(regenerate: Regenerate | None = None, kept: Callable[[], str] | None = None,
                   prefix: str = "audit",
                   done: Callable[[Report], None] | None = None) -> Callable[..., None]:
    """The `verify` command; `regenerate` is the generator step 7 reproduces pools with, if any;
    `kept` says what the caller already has in place, for the line of an interrupt (poolgen demo);
    `prefix` the program's name in its error lines; `done` is given the report once it is printed
    (poolgen demo's report step draws this very verdict rather than verifying again)."""

    def verify(
        run: Annotated[Path, typer.Argument(
            metavar="RUN", help="The run folder (manifest.json, manifest.sig, pool files).")],
        public_key: PublicKey,
        spec: Spec = None,
        seed_file: SeedFile = None,
        ceremony: CeremonyFile = None,
        party_key: PartyKeys = None,
        ceremony_bundle: Bundles = None,
        earlier_manifest: EarlierManifests = None,
        as_json: Annotated[bool, typer.Option(
            "--json", help="Print the report as one JSON document.")] = False,
        workers: Annotated[str, typer.Option(
            "--workers", metavar="N", help=f"Pools checked at once, 0 to {MAX_WORKERS} (0: one per CPU "
                                           "core).")] = "0",
        allow_readable_secret: Annotated[bool, typer.Option(
            READABLE_SECRET_FLAG, help="Use a seed file, validation or book key even if its group or others "
                                  "may read it.")] = False,
        validation_key: Annotated[Path | None, typer.Option(
            "--validation-key", metavar="FILE",
            help="The low-tier validation key: step 9 re-derives validation-low.bin.")] = None,
        high_validation_key: Annotated[Path | None, typer.Option(
            "--high-validation-key", metavar="FILE",
            help="The high-tier validation key: step 9 re-derives validation-high.bin.")] = None,
        book_key: Annotated[Path | None, typer.Option(
            "--book-key", metavar="FILE",
            help="The book key of a run whose book numbers are under one: step 3 checks the permutation "
                 "(without it, that it is one) and step 7 regenerates with it.")] = None,
        reveal: Reveal = False,
    ) -> None:
        """Run the audit checklist on RUN: (1) signature, (2) files, (3) completeness, (4) layouts,
        (5) figures, (6) Merkle roots, (7) reproduction from the seed (or a ceremony's reveals),
        (8) statistics (99% for the run), (9) deliverables. Exit 0 only if every step passes, 1 if
        any fails, 2 if the input cannot be used, 141 if standard output's reader stopped (`| head`)."""
        previous = install()  # Ctrl-C and SIGTERM: one line and 128 + the signal (audit/interrupts.py)
        try:
            pause_point("verify-started")
            workers = str(workers)  # (poolgen demo passes the number itself)
            if not re.fullmatch(r"[0-9]{1,3}", workers) or int(workers) > MAX_WORKERS:
                raise UnusableInput(f"--workers {workers[:20]!r}: give a whole number from 0 to "
                                    f"{MAX_WORKERS}")
            count = int(workers) or os.cpu_count() or 1
            early = _early_workers(count)  # first: their imports overlap this command's own
            try:
                with deferred():  # a signal while modules load: raised once they have, never lost there
                    from audit.verify import VerifyRequest, verify_run  # here: start-up time (scaling.md)
                with progress_bar() as bar:
                    request = VerifyRequest(run=run, public_key=public_key, spec=spec, seed_file=seed_file,
                                            ceremony=ceremony, party_keys=_pairs(party_key),
                                            ceremony_bundles=tuple(ceremony_bundle or ()),
                                            earlier_manifests=tuple(earlier_manifest or ()), workers=count,
                                            regenerate=regenerate,
                                            allow_readable_secret=allow_readable_secret,
                                            validation_key=validation_key,
                                            high_validation_key=high_validation_key, book_key=book_key,
                                            reveal=reveal, progress=bar, early=early)
                    report = verify_run(request)
            finally:
                if early is not None:  # not taken (a refusal, an error, an interrupt): killed, before the
                    early.close()  # one line is said (a signal meanwhile is said instead: handled below)
            if as_json:
                typer.echo(json.dumps(report.to_json(), indent=2))
            else:
                print_report(report)
            if done is not None:
                done(report)
            ended(report.exit_code)
        except UnusableInput as exc:
            ended(2)
            raise _unusable(str(exc), prefix) from None
        except KeyboardInterrupt as exc:
            signum = getattr(exc, "signum", signal.SIGINT)
            also = f"; {kept()}" if kept is not None and kept() else ""
            typer.echo(f"{prefix}: error: interrupted by {signal.Signals(signum).name}; nothing was "
                       f"verified{also}", err=True)
            ended(128 + signum)
            raise typer.Exit(128 + signum) from None
        finally:
            restore(previous)
        raise typer.Exit(report.exit_code)

    return verify


verify = verify_command()


def print_report(report: Report) -> None:
    echo = typer.echo
    key = f" with key {report.key_fingerprint}" if report.key_fingerprint else ""
    echo(f"audit of run {report.run}{key}")
    for s in report.steps:
        label = {"pass": "pass", "fail": "FAIL", "skip": "skip"}[s.status]
        # a skipped step may have checked some things first (step 7 of audit alone: the salts, tier
        # order and validation numbers from the seed): said under the reason it stopped, as in the PDF
        lines = {"pass": s.details, "skip": s.reasons + s.details}.get(s.status, s.reasons)
        echo(f"  {s.step} {s.title:<13} {label}  {lines[0] if lines else ''}")
        for line in lines[1:]:
            echo(f"  {'':<15} {'':4}  {line}")
    skipped = [str(s.step) for s in report.steps if s.status == "skip"]
    if report.ok and skipped:
        echo(f"verified: every step that was run passes; step(s) {', '.join(skipped)} skipped (above: why)")
    elif report.ok:
        echo("verified: every step passes")
    else:
        echo(f"NOT verified: step(s) {', '.join(str(n) for n in report.failed)} did not pass")


def _standard_input() -> bytes:
    """A proof given as `-`: standard input's bytes, at most one more than a proof may hold. Standard input
    closed (`<&-`: Python has no sys.stdin) or unreadable is one line, as a proof file's would be."""
    if sys.stdin is None:
        raise UnusableInput("standard input: closed; no proof to read (give the proof's file, or `-` with "
                            "the proof on standard input)")
    try:
        return sys.stdin.buffer.read(MAX_PROOF_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a closed file object
        why = getattr(exc, "strerror", None) or exc
        raise UnusableInput(f"standard input: cannot be read ({why})") from None


def check_proof_cmd(
    proof_file: Annotated[Path, typer.Argument(
        metavar="PROOF", help="A proof from `poolgen merkle-proof ... --json` (- for standard input).")],
    manifest: Annotated[Path, typer.Argument(
        metavar="MANIFEST", help="The run's manifest.json (manifest.sig beside it).")],
    public_key: PublicKey,
    signature: Annotated[Path | None, typer.Option(
        "--signature", metavar="FILE", help="The manifest's signature, if not beside it.")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the verdict as JSON (valid; the ticket, pool, position and prize of a valid "
                       "proof).")] = False,
) -> None:
    """Check that one ticket belongs to a signed pool: the manifest's signature, then the ticket's
    row and Merkle path up to the pool's signed root. Exit 0 valid, 1 invalid, 2 unusable input."""
    # here, not at module level: the start-up time of every command (docs/scaling.md)
    from audit.proof import check_proof  # polars, numpy (the Merkle table)
    from audit.read.manifest import load_public_key  # cryptography

    name = "standard input" if str(proof_file) == "-" else str(proof_file)
    try:
        data = _standard_input() if str(proof_file) == "-" else \
            read_bounded(proof_file, "proof", MAX_PROOF_BYTES)
        if len(data) > MAX_PROOF_BYTES:  # standard input's (a larger file is refused unread)
            raise UnusableInput(f"standard input: larger than {MAX_PROOF_BYTES:,} bytes; not a proof")
        proof = parse_json(data, name, "proof", floats=True)
        message = check_proof(proof, manifest, load_public_key(public_key), signature)
    except MalformedProof as exc:
        raise _unusable(f"{name}: not a usable proof: {exc}") from None
    except UnusableInput as exc:
        raise _unusable(str(exc)) from None
    except InvalidProof as exc:
        text = f"INVALID proof: {one_line(str(exc))}"
        typer.echo(json.dumps({"valid": False, "text": text}) if as_json else text)
        raise typer.Exit(1) from None
    text = f"valid proof: {message}"
    if as_json:  # the proof passed every check, so its fields are the signed pool's
        assert isinstance(proof, dict)
        typer.echo(json.dumps({"valid": True, "ticket": proof["ticket"], "pool": proof["pool"],
                               "position": proof["position"], "tickets": proof.get("tickets"),
                               "prize_cents": proof["row"]["prize_cents"], "text": text}))
    else:
        typer.echo(text)


def code_hash_cmd(
    folder: Annotated[Path, typer.Argument(
        metavar="DIR", help="A copy of poolgen's package folder (the one holding __init__.py).")],
    v1: Annotated[bool, typer.Option(
        "--v1", help="The v1 hash (*.py files only) of runs made before v2, to compare with such a "
                     "run's tool.code.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the folder, the algorithm, the hash and the files hashed as JSON (as a "
                       "manifest's tool.code).")] = False,
) -> None:
    """Print the code hash of a poolgen package folder (docs/provenance.md; v2, or v1 with --v1), to
    compare with a manifest's tool.code.sha256 and with `poolgen --version`."""
    version = 1 if v1 else 2
    try:
        digest, count = code_hash(folder, version)
    except UnusableInput as exc:
        raise _unusable(str(exc)) from None
    if as_json:
        typer.echo(json.dumps({"folder": str(folder), "algorithm": ALGORITHMS[version], "sha256": digest,
                               "files": count}, indent=2))
    else:
        typer.echo(f"code SHA-256 {digest} ({count} {'source ' if v1 else ''}files, poolgen/code/v{version})")


app.command("verify", epilog=examples(
    "python -m audit verify outputs/RUN --public-key signing-key.pub.pem",
    "python -m audit verify outputs/RUN --public-key K --seed-file F --json",
))(verify)
app.command("check-proof", epilog=examples(
    "python -m audit check-proof claim.json RUN/manifest.json --public-key K",
    "poolgen merkle-proof RUN TICKET VIRN --json | python -m audit \\",
    "    check-proof - RUN/manifest.json --public-key K",
))(check_proof_cmd)
app.command("code-hash", epilog=examples(
    "python -m audit code-hash poolgen/          # compare: poolgen --version",
    "python -m audit code-hash poolgen/ --v1     # a run made before v2",
))(code_hash_cmd)
help_command(app, "python -m audit")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"audit {audit.__version__}")  # a generator's code: `code-hash`, `poolgen --version`
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option(
        "--version", "-V", is_eager=True, callback=_version, help="Print the version, then exit.")] = False,
) -> None:
    """Verify a poolgen run from its files and a public key alone."""
