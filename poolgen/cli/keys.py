"""`poolgen keys`: Ed25519 key pairs that sign runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import echo, reports_errors, say
from poolgen.cli.prompts import ask_passphrase
from poolgen.cli.seal import recipient_new
from poolgen.files.leftovers import sweep
from poolgen.files.read import PASSPHRASE_ENV

app = typer.Typer(rich_markup_mode="markdown",
                  help="new: the Ed25519 key pair that signs runs; validation: the keys of validation files; "
                       "recipient: a printer's X25519 key pair, to seal imaging files to.",
                  no_args_is_help=True)


validation = typer.Typer(help="new: create a validation key (it opens a run's validation files).",
                         no_args_is_help=True)
app.add_typer(validation, name="validation")


@validation.command("new")
@reports_errors
def new_validation(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The new key file (mode 0600).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the file and check value as JSON.")] = False,
) -> None:
    """Create a validation key: 32 random bytes as 64 hex digits in FILE (mode 0600, never overwritten,
    never inside a run folder). Prints only its public check value. Make one key per tier."""
    from poolgen.deliverables.validation import new_validation_key  # lazy: start-up time (numpy)

    check = new_validation_key(file)
    say(f"wrote validation key {file} (mode 0600); keep it secret")
    if as_json:
        typer.echo(json.dumps({"key_file": str(file), "check_value": check}, indent=2))
    else:
        echo(f"validation key check value: {check}")


app.command("recipient")(recipient_new)


@app.command("new")
@reports_errors
def new(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="Folder for the two key files.")],
    passphrase: Annotated[bool, typer.Option(
        "--passphrase", help=f"Encrypt the private key with a passphrase (from {PASSPHRASE_ENV} or "
                             "a prompt).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the key files and fingerprint as "
                                                         "JSON.")] = False,
) -> None:
    """Create DIR/signing-key.pem (private, mode 0600) and DIR/signing-key.pub.pem (public) and
    print the public key's fingerprint. Existing key files are never overwritten."""
    from poolgen.run.signing import new_key_pair  # lazy: cryptography, start-up time (docs/scaling.md)

    secret = ask_passphrase(confirm=True) if passphrase else None
    for line in sweep(folder):  # temporary files of a killed `keys new` may hold key bytes
        say(line)
    files = new_key_pair(folder, secret)
    state = "encrypted with a passphrase" if files.encrypted else "not encrypted"
    say(f"wrote private key {files.private} (mode 0600, {state}) and public key {files.public}")
    if as_json:
        typer.echo(json.dumps({"private_key": str(files.private), "public_key": str(files.public),
                               "encrypted": files.encrypted, "fingerprint": files.fingerprint}, indent=2))
    else:
        echo(f"public key fingerprint: {files.fingerprint}")
