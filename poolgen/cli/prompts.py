"""What a command asks a person, and only a person: as gh does, a command whose standard input is not a
terminal (a pipe, /dev/null, a file: a script) reads no answer from it. Where it would ask, it refuses
in one line, exit 2, naming the option (or variable) that answers instead, and nothing is changed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from poolgen.errors import PoolgenError, SigningKeyError
from poolgen.files.read import PASSPHRASE_ENV

NOT_A_TERMINAL = "standard input is not a terminal, so nothing is asked"


def on_a_terminal() -> bool:
    """Whether standard input is a terminal a person can answer at."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):  # closed, or no such descriptor
        return False


def ask(text: str, option: str, yes: bool, error: type[PoolgenError], default: str | None = None) -> str:
    """The answer to `text`, asked for the missing `option`: refused in one line naming it under --yes,
    without a terminal, or when no answer comes."""
    if yes:
        raise error(f"{option}: missing (with --yes nothing is asked; give it)")
    if not on_a_terminal():
        raise error(f"{option}: missing ({NOT_A_TERMINAL}; give {option})")
    try:
        answer: str = typer.prompt(text, default=default, err=True)
        return answer
    except typer.Abort:
        raise error(f"{option}: missing (no answer at its prompt; nothing was changed)") from None


def confirm(text: str, yes: bool, error: type[PoolgenError]) -> None:
    """Go on only if confirmed: --yes confirms without asking; without a terminal it is refused."""
    if yes:
        return
    if not on_a_terminal():
        raise error(f"not confirmed; nothing was changed ({NOT_A_TERMINAL}; give --yes to confirm)")
    try:
        ok = typer.confirm(text, default=True, err=True)
    except typer.Abort:  # no answer could be read
        raise error("not confirmed; nothing was changed (no answer: give --yes in a script)") from None
    if not ok:
        raise error("not confirmed; nothing was changed")


def ask_passphrase(confirm: bool = False, key: Path | None = None) -> bytes:
    """The passphrase from POOLGEN_KEY_PASSPHRASE, else from a hidden prompt on a terminal. `key`, an
    encrypted key file being opened, is named when none is given (one of several keys a command reads)."""
    value = os.environ.get(PASSPHRASE_ENV)
    if value is None:
        whose = f"{key}: the private key is encrypted; " if key is not None else ""
        if not on_a_terminal():
            raise SigningKeyError(f"{whose}no passphrase given ({NOT_A_TERMINAL}; set {PASSPHRASE_ENV})")
        try:
            value = typer.prompt("Key passphrase", hide_input=True, confirmation_prompt=confirm,
                                 err=True)
        except typer.Abort:
            raise SigningKeyError(f"{whose}no passphrase given (set {PASSPHRASE_ENV} or type it at the "
                                  "prompt)") from None
        except UnicodeDecodeError:
            raise SigningKeyError("the passphrase typed is not UTF-8 text") from None
    if not value:
        raise SigningKeyError("the passphrase is empty")
    try:  # an environment variable of bytes that are not UTF-8 arrives with surrogates (PEP 383)
        return value.encode("utf-8")
    except UnicodeEncodeError:
        raise SigningKeyError(f"{PASSPHRASE_ENV}: the passphrase is not UTF-8 text (a key's passphrase is "
                              "text, the same typed at a prompt)") from None
