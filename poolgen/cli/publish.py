"""`poolgen publish`: the public commitment bundle of a run, to publish before sale."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from poolgen.cli.common import echo, reports_errors, say


@reports_errors
def publish_cmd(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The signed run folder.")],
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="The bundle folder to create (new).")],
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", metavar="FILE", help="The signer's public key (needed: a run folder records only its "
                                             "fingerprint): the signature is checked with it and the key "
                                             "is put in the bundle.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the bundle's files as JSON.")] = False,
) -> None:
    """Write the public commitment of RUN (signed manifest, signature, seed and ceremony commitments,
    pool roots; no pool file, seed or reveal) into DIR. Publish it before sale; once claims close,
    publish the seed or ceremony file so anyone can verify (docs/publish-and-reveal.md)."""
    from poolgen.run.publish import publish  # lazy: start-up time of every command (docs/scaling.md)

    names = publish(run, out, public_key)
    say(f"wrote the public commitment bundle {out}: {', '.join(names)}")
    if as_json:
        typer.echo(json.dumps({"bundle": str(out), "files": names}, indent=2))
    else:
        echo(f"bundle {out}: publish it before sale; nothing in it tells an outcome")
