"""`poolgen ceremony`: a commit-reveal seed ceremony, one plain step per party (docs/ceremony.md).

Every command asks for what it is not given (party name, file, value) and explains the step; with
every flag given and --yes it asks nothing, for scripts. Secrets (contributions, the seed) are never
printed; the ceremony file and contribution files are mode 0600.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import reports_errors, say
from poolgen.seeds.ceremony import (
    Ceremony,
    CeremonyError,
    create_file,
    load,
    make_contribution,
    new_ceremony,
    read_contribution,
    save,
    write_contribution,
)

app = typer.Typer(rich_markup_mode="markdown", no_args_is_help=True,
                  help="A commit-reveal seed ceremony: every party contributes, nobody chooses the seed. "
                       "Steps: new, commit (each party), reveal (each party), seal; then generate "
                       "--ceremony.")

File = Annotated[Path, typer.Argument(metavar="CEREMONY", help="The ceremony file (mode 0600).")]
PartyName = Annotated[str | None, typer.Option("--party",
                                               help="Your party's name, as the ceremony lists it.")]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation (for scripts).")]


def _ask(text: str, default: str | None = None) -> str:
    try:
        answer: str = typer.prompt(text, default=default, err=True)
        return answer
    except typer.Abort:
        raise CeremonyError("stopped at the prompt; nothing was changed") from None


def _confirm(text: str, yes: bool) -> None:
    if yes:
        return
    try:
        ok = typer.confirm(text, default=True, err=True)
    except typer.Abort:  # no answer could be read: a script, or no terminal
        raise CeremonyError("not confirmed; nothing was changed (no answer: give --yes in a "
                            "script)") from None
    if not ok:
        raise CeremonyError("not confirmed; nothing was changed")


def _party(ceremony: Ceremony, name: str | None, kinds: tuple[str, ...]) -> str:
    if name is not None:
        return name
    names = ", ".join(p.name for p in ceremony.parties if p.kind in kinds)
    return _ask(f"Which party are you? ({names})")


@app.command("new")
@reports_errors
def new(
    file: File,
    ceremony_id: Annotated[str | None, typer.Option("--id", help="A name for this ceremony.")] = None,
    party: Annotated[list[str] | None, typer.Option(
        "--party", help="A party that makes a secret contribution (repeat for each).")] = None,
    public: Annotated[list[str] | None, typer.Option(
        "--public", metavar="NAME=SOURCE", help="A public party: NAME=where its value will be published "
        "after commitments close (e.g. 'beacon=NIST beacon pulse of 2026-12-05 12:00 UTC').")] = None,
) -> None:
    """Start a ceremony: its id and the parties, in the order their reveals enter the seed."""
    if ceremony_id is None:
        ceremony_id = _ask("A name for this ceremony (letters, digits, '-', e.g. game358-2026-12)")
    if not party:
        say("Each party (vendor, lottery, auditor, ...) makes a secret contribution on its own computer.")
        party = [n.strip() for n in _ask("Names of those parties, separated by commas").split(",")]
        if not public and typer.confirm("Add a public party (a value published only after every "
                                        "commitment is in, such as a draw result)?", default=False, err=True):
            public = [f"{_ask('Its name')}={_ask('Where and when its value will be published')}"]
    pairs = []
    for item in public or []:
        name, sep, source = item.partition("=")
        if not sep:
            raise CeremonyError(f"--public {item!r}: write NAME=SOURCE")
        pairs.append((name.strip(), source.strip()))
    ceremony = new_ceremony(ceremony_id, [p.strip() for p in party], pairs)
    create_file(file, ceremony)
    say(f"wrote ceremony file {file} (mode 0600) for ceremony {ceremony.id}")
    say(f"next: each of {', '.join(ceremony.waiting_to_commit())} runs: poolgen ceremony commit {file}")


@app.command("commit")
@reports_errors
def commit(
    file: File, party: PartyName = None,
    contribution: Annotated[Path | None, typer.Option(
        "--contribution", metavar="FILE", help="Where to save your secret contribution (a new file, "
                                               "mode 0600). Default: ask.")] = None,
    yes: Yes = False,
) -> None:
    """Make your secret contribution (saved only in your file) and record its commitment."""
    ceremony = load(file)
    name = _party(ceremony, party, ("secret",))
    if contribution is None:
        contribution = Path(_ask("Where should your secret contribution be saved? Keep it private until "
                                 "you reveal it", default=f"{name}.contribution"))
    value, commitment = make_contribution(ceremony, name)
    closed = ceremony.commit(name, commitment)  # refuses before anything is written
    _confirm(f"Save a new secret contribution for {name} in {contribution} and record its commitment?", yes)
    write_contribution(contribution, ceremony, name, value)
    try:
        save(file, ceremony)
    except BaseException:
        contribution.unlink(missing_ok=True)  # new and never committed: nothing depends on it
        raise
    say(f"saved your secret contribution in {contribution} (mode 0600); do not show it to anyone yet")
    typer.echo(f"commitment of {name}: {commitment}")
    if closed:
        typer.echo(f"commitments closed: transcript SHA-256 {ceremony.transcript}")
        say("every party should write this transcript down; next: each party runs "
            f"poolgen ceremony reveal {file}")
    else:
        say(f"waiting for the commitments of {', '.join(ceremony.waiting_to_commit())}")


@app.command("reveal")
@reports_errors
def reveal(
    file: File, party: PartyName = None,
    contribution: Annotated[Path | None, typer.Option(
        "--contribution", metavar="FILE", help="Your contribution file (secret parties).")] = None,
    value: Annotated[str | None, typer.Option(
        "--value", help="The published value, exactly as published (public parties).")] = None,
    yes: Yes = False,
) -> None:
    """After every commitment is in: reveal your contribution (or the public value); it must match."""
    ceremony = load(file)
    ceremony.check_closed()
    name = _party(ceremony, party, ("secret", "public"))
    if ceremony.party(name).kind == "public":
        if value is None:
            value = _ask(f"The value published at: {ceremony.party(name).source}\nType it exactly")
        ceremony.reveal_public(name, value)
    else:
        if contribution is None:
            contribution = Path(_ask("Your contribution file", default=f"{name}.contribution"))
        ceremony.reveal_secret(name, read_contribution(contribution, ceremony, name))
    public = ceremony.party(name).kind == "public"
    _confirm(f"Record {name}'s public value in the ceremony file?" if public
             else f"Reveal {name}'s contribution into the ceremony file?", yes)
    save(file, ceremony)
    typer.echo(f"{name}: public value recorded" if public else f"{name}: revealed; it matches its commitment")
    waiting = ceremony.waiting_to_reveal()
    say(f"waiting for the reveals of {', '.join(waiting)}" if waiting
        else f"every party has revealed; next: poolgen ceremony seal {file}")


@app.command("seal")
@reports_errors
def seal(file: File, yes: Yes = False) -> None:
    """Check every reveal against its commitment and fix the seed (its commitment is printed, never the
    seed). Then: poolgen generate SPEC --ceremony CEREMONY."""
    ceremony = load(file)
    ceremony.seed()  # every check, before asking
    names = ", ".join(p.name for p in ceremony.parties)
    _confirm(f"Seal ceremony {ceremony.id} with the reveals of {names}?", yes)
    ceremony.seal()
    save(file, ceremony)
    typer.echo(f"ceremony {ceremony.id} sealed: transcript SHA-256 {ceremony.transcript}")
    typer.echo(f"seed commitment: {ceremony.sealed}")
    say(f"next: poolgen generate SPEC --ceremony {file}; keep {file} secret until the game closes")


@app.command("status")
@reports_errors
def status(file: File, as_json: Annotated[bool, typer.Option("--json", help="Print it as JSON.")] = False,
           ) -> None:
    """The ceremony's public state: parties, commitments, who has revealed (never a secret value)."""
    ceremony = load(file)
    if as_json:
        parties = [{"name": p.name, "kind": p.kind, "commitment": p.commitment,
                    "revealed": p.reveal is not None} if p.kind == "secret" else
                   {"name": p.name, "kind": p.kind, "source": p.source, "value": p.reveal}
                   for p in ceremony.parties]  # a secret party's revealed value is never shown
        typer.echo(json.dumps({"ceremony": ceremony.id, "parties": parties,
                               "transcript": ceremony.transcript, "seed_commitment": ceremony.sealed},
                              indent=2))
        return
    typer.echo(f"ceremony {ceremony.id}")
    for p in ceremony.parties:
        if p.kind == "secret":
            state = f"commitment {p.commitment}" if p.commitment else "not committed"
            typer.echo(f"  {p.name} (secret): {state}; {'revealed' if p.reveal else 'not revealed'}")
        else:
            shown = f"value {p.reveal!r}" if p.reveal is not None else "not revealed"
            typer.echo(f"  {p.name} (public, {p.source}): {shown}")
    typer.echo(f"transcript SHA-256: {ceremony.transcript or 'commitments not closed'}")
    typer.echo(f"seed commitment: {ceremony.sealed or 'not sealed'}")
