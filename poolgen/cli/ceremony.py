"""`poolgen ceremony`: a bound, signed commit-reveal seed ceremony closed by a drand round
(docs/ceremony.md), one plain step per party.

Every command asks for what it is not given and for confirmation before it changes anything, on a
terminal only (poolgen/cli/prompts.py); with --yes, or when standard input is not a terminal (a script),
it asks nothing and refuses a missing option or confirmation in one line naming the option that gives
it. With --json, what a step did is one JSON document on standard output. `--key` alone names the party
(its public half is listed in the ceremony). Secrets (contributions, the seed) are never printed. The
clock is read here only; POOLGEN_TEST_NOW (a UTC time) replaces it for tests and rehearsals, only for a
ceremony whose round the computer's own clock sees already published (the clock is each party's own
anyway: docs/ceremony.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from poolgen.cli.ceremony_clock import now, rehearsal_only
from poolgen.cli.common import Force, Json, echo, reports_errors, say
from poolgen.cli.prompts import ask, ask_passphrase, confirm
from poolgen.files.read import PASSPHRASE_ENV
from poolgen.files.write import check_run_id
from poolgen.interrupts import deferred
from poolgen.run.provenance import code_entry
from poolgen.seeds.beacon import QUICKNET, read_round

if TYPE_CHECKING:  # types only
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from poolgen.seeds.ceremony import Ceremony

# The ceremony's modules (cryptography) are imported by the functions that use them, not with this module:
# they would otherwise load with every poolgen command, --help included (start-up time, docs/scaling.md).

app = typer.Typer(rich_markup_mode="markdown", no_args_is_help=True,
                  help="A seed ceremony: the game bound first, every party signs its commitment and its "
                       "reveal, a drand round named in advance closes it. Steps: new, commit, publish, "
                       "reveal (each party), seal; then generate --ceremony. Also abort, status.")

File = Annotated[Path, typer.Argument(metavar="CEREMONY", help="The ceremony file (mode 0600).")]
PartyName = Annotated[str | None, typer.Option(
    "--party", help="Your party's name, as the ceremony lists it (default: the party whose key --key is).")]
Key = Annotated[Path | None, typer.Option(
    "--key", metavar="FILE", help="Your party's private key (poolgen keys new), listed at ceremony new.")]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Ask nothing, not even for confirmation (for "
                                                       "scripts): a missing option is refused.")]
Readable = Annotated[bool, typer.Option("--allow-readable-secret", help="Use a private key others may read.")]


def _ask(text: str, option: str, yes: bool, default: str | None = None) -> str:
    from poolgen.seeds.ceremony import CeremonyError  # lazy: start-up time

    return ask(text, option, yes, CeremonyError, default)


def _confirm(text: str, yes: bool) -> None:
    from poolgen.seeds.ceremony import CeremonyError  # lazy: start-up time

    confirm(text, yes, CeremonyError)


def _said(as_json: bool, lines: list[str], doc: dict[str, object]) -> None:
    """What a step prints on standard output: its lines, or with --json one JSON document."""
    if as_json:
        typer.echo(json.dumps(doc, indent=2, default=str))  # as `status`: the transcript's times
    for line in [] if as_json else lines:
        echo(line)


def _passphrase(key: Path, yes: bool) -> bytes:
    """An encrypted key's passphrase: from the environment, else asked, but never under --yes."""
    from poolgen.seeds.ceremony import CeremonyError  # lazy: start-up time

    if yes and os.environ.get(PASSPHRASE_ENV) is None:
        raise CeremonyError(f"{key}: the private key is encrypted; with --yes nothing is asked: set "
                            f"{PASSPHRASE_ENV}")
    return ask_passphrase(key=key)


def _party(ceremony: Ceremony, name: str | None, key: Path | None, readable: bool,
           yes: bool) -> tuple[str, Ed25519PrivateKey]:
    """The party and its private key: the key alone names the party (its public half is listed)."""
    from poolgen.run.signing import load_private_key  # lazy: start-up time

    if name is None and key is None:
        name = _ask(f"Which party are you? ({', '.join(ceremony.names)})", "--party or --key", yes)
    if name is not None:
        ceremony.index(name)
    if key is None:
        key = Path(_ask("Your private key file", "--key", yes, default=f"{name}-keys/signing-key.pem"))
    private = load_private_key(key, lambda: _passphrase(key, yes), readable)
    if name is None:
        name = ceremony.party_of(private)
    ceremony.check_key(name, private)
    return name, private


@app.command("new")
@reports_errors
def new(
    file: File,
    ceremony_id: Annotated[str, typer.Option("--id", help="A name for this ceremony.")],
    spec: Annotated[Path, typer.Option("--spec", metavar="FILE", help="The spec the run will be made from.")],
    party: Annotated[list[str], typer.Option(
        "--party", metavar="NAME=PUBLIC_KEY", help="A secret party and its Ed25519 public key (PEM); "
        "at least two, in the order their reveals enter the seed.")],
    beacon_round: Annotated[int, typer.Option(
        "--beacon-round", help="The drand quicknet round that closes the ceremony: due 600 s (10 "
                               "minutes) or more after reveals close.")],
    reveals_close: Annotated[str, typer.Option(
        "--reveals-close", metavar="TIME", help="When reveals close, UTC: YYYY-MM-DDTHH:MM:SSZ.")],
    pool: Annotated[list[str] | None, typer.Option(
        "--pool", help="A pool the run builds (default: all).")] = None,
    run_id: Annotated[str | None, typer.Option(
        "--run-id", help="The run's id (default: the ceremony id).")] = None,
    chain: Annotated[str, typer.Option(
        "--beacon-chain", metavar="HASH", help="The drand chain's hash.")] = QUICKNET.hash,
    book_key_check: Annotated[str | None, typer.Option(
        "--book-key-check", metavar="HEX", help="The check value of the book key the run's books will be "
        "numbered under (poolgen keys validation new prints it), bound before anyone commits.")] = None,
    follows: Annotated[list[Path] | None, typer.Option(
        "--follows", metavar="MANIFEST", help="A reorder: the signed manifest.json of an earlier, published "
        "order of these pools (every earlier one, each once); its SHA-256 and its ceremony's transcript "
        "hash are bound before anyone commits.")] = None,
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", metavar="FILE", help="With --follows (required there): the operator's public key, "
        "which signs every order of the game; each followed manifest's manifest.sig must verify with it.")
    ] = None,
    as_json: Json = False,
) -> None:
    """Bind the game (spec, code, pools, run, earlier orders), list the parties' keys, name the round."""
    from poolgen.loader import load_spec  # lazy: numpy, off every command's start-up (docs/scaling.md)
    from poolgen.run.signing import fingerprint, load_public_key  # lazy: start-up time
    from poolgen.seeds.ceremony import Binding, CeremonyError, parse_time, utc_text  # lazy: start-up time
    from poolgen.seeds.ceremony_file import create_file, followed  # lazy: start-up time
    from poolgen.seeds.rules import new_ceremony  # lazy: start-up time

    game = load_spec(spec)
    ids = pool or [p.id for p in game.pools]
    for pid in ids:
        game.pool(pid)
    every = [p.id for p in game.pools]
    if getattr(game.sales, "split", None) is not None and sorted(ids) != sorted(every):
        raise CeremonyError(f"--pool: {game.file} splits its order's counts over its pools (printed.split): "
                            f"one seed makes every pool of the order, so a ceremony binds them all "
                            f"({', '.join(every)}), not {', '.join(ids)}")
    parties = []
    for item in party:
        name, sep, key = item.partition("=")
        if not sep:
            raise CeremonyError(f"--party {item!r}: write NAME=PUBLIC_KEY_FILE")
        parties.append((name.strip(), load_public_key(Path(key.strip()))))
    if book_key_check is not None and not re.fullmatch(r"[0-9a-f]{16}", book_key_check):
        raise CeremonyError(f"--book-key-check {book_key_check[:20]!r}: 16 lower-case hex digits")
    run = ceremony_id if run_id is None else check_run_id(run_id)  # "" refused: an unset shell variable
    earlier: tuple[dict[str, str], ...] = ()
    signed_by = ""
    if follows:
        if public_key is None:
            raise CeremonyError("--follows: give the operator's public key (--public-key): an earlier order "
                                "is followed only once its manifest's signature verifies with it")
        signer = load_public_key(public_key)
        signed_by = fingerprint(signer)
        earlier = tuple(followed(m, game.id, tuple(ids), run, signer) for m in follows)
    elif public_key is not None:
        raise CeremonyError("--public-key: not used: it checks the signatures of --follows manifests")
    binding = Binding(game.sha256, code_entry()["sha256"], game.id, tuple(ids), run, book_key_check, earlier,
                      printed=(game.number, game.regulation))
    ceremony = new_ceremony(ceremony_id, binding, parties, chain, beacon_round,
                            parse_time(reveals_close, "--reveals-close"), now())
    rehearsal_only(ceremony)
    create_file(file, ceremony)
    due = ceremony.chain.round_time(beacon_round)
    say(f"wrote ceremony file {file} (mode 0600) for ceremony {ceremony.id}")
    _said(as_json, [f"transcript SHA-256 {ceremony.transcript_sha256}"],
          {"ceremony_file": str(file), "mode": "0600", "ceremony": ceremony.id,
           "transcript_sha256": ceremony.transcript_sha256, "binds": ceremony.transcript,
           "beacon": {"chain": ceremony.chain.name, "round": beacon_round, "due": utc_text(due)},
           "reveals_close": utc_text(ceremony.reveals_close), "parties": ceremony.names})
    say(f"it binds spec {game.file} ({game.sha256[:16]}...), pools {', '.join(ids)}, run {binding.run_id}; "
        f"reveals close {utc_text(ceremony.reveals_close)}; {QUICKNET.name} round {beacon_round} is due "
        f"{utc_text(due)}")
    for f in earlier:
        say(f"it follows run {f['run_id']} (manifest {f['manifest_sha256'][:16]}..., ceremony transcript "
            f"{f['transcript_sha256'][:16]}...; its signature verifies with key {signed_by}): "
            "every party's commitment signs that it is an earlier, published order")
    say(f"next: each of {', '.join(ceremony.names)} runs: poolgen ceremony commit {file}")


@app.command("commit")
@reports_errors
def commit(
    file: File, party: PartyName = None, key: Key = None,
    contribution: Annotated[Path | None, typer.Option(
        "--contribution", metavar="FILE", help="Where to save your secret contribution (a new file, "
                                               "mode 0600). Default: ask.")] = None,
    yes: Yes = False, allow_readable_secret: Readable = False, as_json: Json = False,
) -> None:
    """Make your secret contribution (saved only in your file) and record its signed commitment."""
    from poolgen.seeds.ceremony import utc_text  # lazy: start-up time (docs/scaling.md)
    from poolgen.seeds.ceremony_file import (  # lazy: start-up time
        load,
        refuse_unused_contribution,
        save,
        saved,
        write_contribution,
    )

    ceremony = load(file)
    name, private = _party(ceremony, party, key, allow_readable_secret, yes)
    if contribution is None:
        contribution = Path(_ask("Where should your secret contribution be saved? Keep it private until "
                                 "you reveal it", "--contribution", yes, default=f"{name}.contribution"))
    value = os.urandom(32)
    rehearsal_only(ceremony)
    closed = ceremony.commit(name, private, value, now())  # refuses before anything is written
    refuse_unused_contribution(contribution, ceremony, name)
    _confirm(f"Save a new secret contribution for {name} in {contribution} and record its commitment?", yes)
    with deferred():  # the contribution and its recorded commitment are kept together or not at all
        write_contribution(contribution, ceremony, name, value)
        try:
            save(file, ceremony)
        except BaseException:
            if not saved(file, ceremony):  # new and never committed: nothing depends on it
                contribution.unlink(missing_ok=True)
            raise
    entry = ceremony.commitments[ceremony.index(name)]
    assert entry is not None
    say(f"saved your secret contribution in {contribution} (mode 0600); do not show it to anyone yet")
    _said(as_json, [f"commitment of {name}: {entry['commitment']}"],  # the contribution: its file only
          {"ceremony": ceremony.id, "party": name, "commitment": entry["commitment"],
           "contribution_file": str(contribution), "mode": "0600",
           "waiting_to_commit": ceremony.waiting_to_commit()})
    if closed:
        say(f"every commitment is in; next: poolgen ceremony publish {file} --out BUNDLE, then each party "
            f"reveals before {utc_text(ceremony.reveals_close)}")
    else:
        say(f"waiting for the commitments of {', '.join(ceremony.waiting_to_commit())}")


@app.command("publish")
@reports_errors
def publish_cmd(
    file: File,
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="The public bundle (a new file).")],
    as_json: Json = False, force: Force = False,
) -> None:
    """Write the pre-sale bundle: transcript, signed commitments, round and abort, never a reveal.
    Publish it before the reveals: a ceremony abandoned after it is on the record."""
    from poolgen.seeds.ceremony_file import load, publish  # lazy: start-up time (docs/scaling.md)

    ceremony = load(file, ending=True)  # no step toward a seed: an abort must reach the record
    publish(out, ceremony, file, force)
    _said(as_json, [f"wrote {out}: ceremony {ceremony.id}, transcript SHA-256 {ceremony.transcript_sha256}"],
          {"bundle": str(out), "ceremony": ceremony.id, "transcript_sha256": ceremony.transcript_sha256,
           "sha256": hashlib.sha256(out.read_bytes()).hexdigest()})
    if (waiting := ceremony.waiting_to_commit()) and ceremony.abort is None:
        say(f"ceremony {ceremony.id}: this bundle lacks the commitments of {', '.join(waiting)}; "
            "publish one to a new file once they are all in: verify's step 5 needs it (docs/ceremony.md)")
    elif ceremony.sealed is not None and ceremony.abort is None:
        say(f"ceremony {ceremony.id}: this bundle holds its round and seed commitment (sealed): verify's "
            "step 5 takes as the run's own only the bundle published before any reveal (docs/ceremony.md)")


@app.command("reveal")
@reports_errors
def reveal(
    file: File, party: PartyName = None, key: Key = None,
    contribution: Annotated[Path | None, typer.Option(
        "--contribution", metavar="FILE", help="Your contribution file.")] = None,
    yes: Yes = False, allow_readable_secret: Readable = False, as_json: Json = False,
) -> None:
    """After every commitment is in and before reveals close: reveal your contribution, signed."""
    from poolgen.seeds.ceremony import utc_text  # lazy: start-up time (docs/scaling.md)
    from poolgen.seeds.ceremony_file import (  # lazy: start-up time
        load,
        read_contribution,
        record_reveal,
        revealed_before,
        save,
    )

    ceremony = load(file)
    ceremony.check_open()
    closed = ceremony.closed()
    name, private = _party(ceremony, party, key, allow_readable_secret, yes)
    if contribution is None:
        contribution = Path(_ask("Your contribution file", "--contribution", yes,
                                 default=f"{name}.contribution"))
    rehearsal_only(ceremony)
    ceremony.reveal(name, private, read_contribution(contribution, ceremony, name), now())
    again = revealed_before(contribution, ceremony, closed)  # never under other commitments
    _confirm(f"Reveal {name}'s contribution into the ceremony file?", yes)
    with deferred():  # the reveal record and the reveal in the ceremony file are kept together
        if not again:
            record_reveal(contribution, ceremony, closed)
        save(file, ceremony)
    waiting = ceremony.waiting_to_reveal()
    _said(as_json, [f"{name}: revealed; it matches its commitment"],  # never the revealed value itself
          {"ceremony": ceremony.id, "party": name, "revealed": True, "matches_commitment": True,
           "waiting_to_reveal": waiting})
    due = utc_text(ceremony.chain.round_time(ceremony.round_number))
    say(f"waiting for the reveals of {', '.join(waiting)}" if waiting
        else f"every party has revealed; next, once round {ceremony.round_number} is out ({due}): "
             f"poolgen ceremony seal {file} --round ROUND.json")


@app.command("seal")
@reports_errors
def seal(
    file: File,
    round_file: Annotated[Path, typer.Option(
        "--round", metavar="FILE", help="The named round as drand serves it (docs/ceremony.md).")],
    yes: Yes = False, as_json: Json = False,
) -> None:
    """Check the drand round's signature and every reveal, and fix the seed (its commitment is printed,
    never the seed). Then: poolgen generate SPEC --ceremony CEREMONY."""
    from poolgen.seeds.ceremony_file import load, save  # lazy: start-up time (docs/scaling.md)

    ceremony = load(file)
    ceremony.check_open()
    beacon = read_round(round_file, ceremony.chain, ceremony.round_number)
    ceremony.seed(beacon)  # every check, before asking
    _confirm(f"Seal ceremony {ceremony.id} with {ceremony.chain.name} round {beacon.round}?", yes)
    ceremony.seal(beacon)
    save(file, ceremony)
    chain = ceremony.chain.name
    _said(as_json, [f"ceremony {ceremony.id} sealed with {chain} round {beacon.round}: transcript SHA-256 "
                    f"{ceremony.transcript_sha256}", f"seed commitment: {ceremony.sealed}"],
          {"ceremony": ceremony.id, "sealed": True, "beacon": {"chain": chain, "round": beacon.round},
           "transcript_sha256": ceremony.transcript_sha256, "seed_commitment": ceremony.sealed})
    say(f"next: poolgen generate SPEC --ceremony {file} --key SIGNING-KEY.pem; keep {file} secret until "
        "claims close")


@app.command("abort")
@reports_errors
def abort(
    file: File, reason: Annotated[str, typer.Option("--reason", help="Why, for the public record.")],
    party: PartyName = None, key: Key = None, yes: Yes = False, allow_readable_secret: Readable = False,
    as_json: Json = False,
) -> None:
    """Abort the ceremony (any party, until every party has revealed): it is signed and recorded; publish
    the bundle."""
    from poolgen.seeds.ceremony_file import load, save  # lazy: start-up time (docs/scaling.md)

    ceremony = load(file, ending=True)  # a ceremony begun before the 600 s rule is still aborted
    name, private = _party(ceremony, party, key, allow_readable_secret, yes)
    ceremony.abort_by(name, private, reason)
    _confirm(f"Abort ceremony {ceremony.id}? It cannot be resumed.", yes)
    save(file, ceremony)
    _said(as_json, [f"ceremony {ceremony.id} aborted by {name}: {reason}"],
          {"ceremony": ceremony.id, "aborted": True, "aborted_by": name, "reason": reason})
    say(f"publish it (poolgen ceremony publish {file} --out BUNDLE) so the abort is on the record")


@app.command("status")
@reports_errors
def status(file: File, as_json: Annotated[bool, typer.Option("--json", help="Print it as JSON.")] = False,
           ) -> None:
    """The ceremony's public state: what it binds, who has committed and revealed (never a secret)."""
    from poolgen.seeds.ceremony import printed_text, utc_text  # lazy: start-up time (docs/scaling.md)
    from poolgen.seeds.ceremony_file import load  # lazy: start-up time

    c = load(file)
    if as_json:  # a party's revealed value is never shown, only whether it has revealed
        parties = [{"name": name, "commitment": cm["commitment"] if cm else None,
                    "revealed_at": rv["revealed_at"] if rv else None}
                   for name, cm, rv in zip(c.names, c.commitments, c.reveals, strict=True)]
        typer.echo(json.dumps({"ceremony": c.id, "transcript_sha256": c.transcript_sha256,
                               "binds": c.transcript,
                               "beacon": {"chain": c.chain.name, "round": c.round_number},
                               "reveals_close": utc_text(c.reveals_close), "parties": parties,
                               "seed_commitment": c.sealed, "run": c.run,
                               "aborted": c.abort}, indent=2, default=str))
        return
    t = c.transcript
    echo(f"ceremony {c.id}: transcript SHA-256 {c.transcript_sha256}")
    echo(f"  binds game {t['game']}, pools {', '.join(t['pools'])}, run {t['run_id']}, spec "
               f"{t['spec_sha256'][:16]}..., code {t['code_sha256'][:16]}..."
               + (f", book key check {t['book_key_check']}" if "book_key_check" in t else ""))
    if "printed" in t:  # what each party checks is the order's printed game before it commits
        echo(f"  printed game: {printed_text((t['printed']['number'], t['printed']['regulation']))}")
    for f in t.get("follows", []):  # what each party checks was published and sold before it commits
        echo(f"  follows run {f['run_id']}: manifest {f['manifest_sha256']}, ceremony transcript "
                   f"{f['transcript_sha256']}")
    echo(f"  beacon: {c.chain.name} round {c.round_number} (due "
         f"{utc_text(c.chain.round_time(c.round_number))}); reveals close {utc_text(c.reveals_close)}")
    for name, cm, rv in zip(c.names, c.commitments, c.reveals, strict=True):
        echo(f"  {name}: {'commitment ' + cm['commitment'] if cm else 'not committed'}; "
                   f"{'revealed at ' + rv['revealed_at'] if rv else 'not revealed'}")
    echo(f"seed commitment: {c.sealed or 'not sealed'}; run: {c.run or 'none yet'}"
               + (f"; aborted by {c.abort['name']}: {c.abort['reason']}" if c.abort else ""))
