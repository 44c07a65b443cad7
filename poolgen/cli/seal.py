"""`poolgen seal` / `poolgen unseal`: a deliverable encrypted to its recipient (HPKE, RFC 9180)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import reports_errors, say
from poolgen.deliverables.seal import SealError, load_private, load_public, new_recipient_key, seal, unseal
from poolgen.files.read import READABLE_SECRET_FLAG, printable, read_input
from poolgen.files.write import write_secret
from poolgen.limits import MAX_SEALED_BYTES


@reports_errors
def seal_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE",
                                         help="The deliverable, e.g. RUN/imaging-p1.parquet.")],
    to: Annotated[Path, typer.Option("--to", metavar="PUB.pem", help="The recipient's X25519 public key.")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="The sealed file (new).")],
) -> None:
    """Encrypt FILE to one recipient: only their private key opens it (HPKE, RFC 9180)."""
    recipient = load_public(to)
    data = read_input(file, "deliverable", SealError, MAX_SEALED_BYTES)
    try:
        sealed = seal(data, file.name, recipient)
    except SealError as exc:
        raise SealError(f"{printable(file)}: cannot be sealed: {exc}") from None
    write_secret(out, sealed, what="sealed file")  # complete under its name, or absent (never part of it)
    say(f"sealed {file.name} to {to} into {out} (mode 0600)")


@reports_errors
def unseal_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A sealed file.")],
    key: Annotated[Path, typer.Option("--key", metavar="KEY.pem", help="The recipient's private key.")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="Where the opened file goes (new).")],
    allow_readable_secret: Annotated[bool, typer.Option(
        READABLE_SECRET_FLAG, help="Use a private key even if its group or others may read it (refused "
                                   "otherwise).")] = False,
) -> None:
    """Open a sealed file with the recipient's private key (fails with any other key)."""
    private = load_private(key, allow_readable_secret)
    name, data = unseal(read_input(file, "sealed", SealError, MAX_SEALED_BYTES), private, printable(file))
    write_secret(out, data, what="opened file")  # complete under its name, or absent
    say(f"opened {name} into {out} (mode 0600)")


@reports_errors
def recipient_new(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="Folder for the two key files.")],
) -> None:
    """Create DIR/recipient-key.pem (private, mode 0600) and DIR/recipient-key.pub.pem: the key pair a
    printer or validation system holds to open sealed deliverables."""
    private, public = new_recipient_key(folder)
    say(f"wrote private key {private} (mode 0600) and public key {public}")
