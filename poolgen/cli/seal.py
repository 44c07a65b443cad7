"""`poolgen seal` / `poolgen unseal`: deliverables encrypted to their recipient (HPKE, RFC 9180)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from poolgen.cli.common import echo, reports_errors, say, say_vouched
from poolgen.files.read import READABLE_SECRET_FLAG, printable, read_input
from poolgen.files.write import present, staged_folder, write_secret
from poolgen.limits import MAX_SEALED_BYTES

# Each command imports what it uses, not this module: cryptography, polars and numpy would otherwise
# load with every poolgen command, --help included (start-up time, docs/scaling.md).


@reports_errors
def seal_cmd(
    file: Annotated[Path, typer.Argument(
        metavar="FILE", help="The deliverable, e.g. RUN/imaging-p1.parquet; or a printed run folder: "
                             "every imaging file of it, each into --out DIR.")],
    to: Annotated[Path, typer.Option("--to", metavar="PUB.pem", help="The recipient's X25519 public key.")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="The sealed file (new); for a run "
                                                                    "folder, a new folder.")],
    public_key: Annotated[Path | None, typer.Option(
        "--public-key", metavar="FILE",
        help="For a run folder: the signer's public key, with which the manifest's signature is checked "
             "before any imaging file is read. Without it the files are held only to the manifest in the "
             "folder: the run folder's word alone.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was sealed as JSON.")] = False,
) -> None:
    """Encrypt FILE (or every imaging file of a run) to one recipient: only their private key opens it
    (HPKE, RFC 9180). Read the recipient fingerprint it prints to the recipient by another channel.

    A run's imaging files are sealed only if their sizes and SHA-256 are the manifest's. With
    --public-key the manifest's signature is checked first, so those are the signer's; without it, they
    are the run folder's word alone (whoever changes a file can change its entry). A line on stderr
    says which."""
    from poolgen.deliverables.printer import print_order  # lazy: start-up time
    from poolgen.deliverables.seal import SealError, load_public, recipient_fingerprint, seal  # lazy: idem
    from poolgen.run.folder import open_run  # lazy: start-up time
    from poolgen.run.publish import signed_by  # lazy: start-up time

    whole_run = os.path.isdir(file)
    if public_key is not None and not whole_run:
        raise SealError(f"--public-key: checks a run folder's manifest; {printable(file)} is one file: seal "
                        "the run folder, or check the file with `poolgen imaging check`")
    try:
        recipient = load_public(to)
    except (ValueError, OSError) as exc:
        raise SealError(f"{to}: cannot read the recipient's public key: {exc}") from None
    fp = recipient_fingerprint(recipient)

    def seal_one(source: Path, target: Path, shown: Path,
                 entry: dict[str, Any] | None = None) -> dict[str, str]:
        data = read_input(source, "deliverable", SealError, MAX_SEALED_BYTES)
        if entry is not None and (len(data), hashlib.sha256(data).hexdigest()) != (entry.get("bytes"),
                                                                                   entry.get("sha256")):
            raise SealError(f"{printable(source)}: not the file the manifest lists as {entry['name']} (its "
                            "size or SHA-256 differs: a changed or swapped file); nothing sealed")
        try:
            sealed = seal(data, source.name, recipient)
        except SealError as exc:
            raise SealError(f"{printable(source)}: cannot be sealed: {exc}") from None
        write_secret(target, sealed, what="sealed file")  # complete under its name, or absent
        return {"file": str(source), "sealed": str(shown)}

    if whole_run:
        run = open_run(file)
        if public_key is not None:  # before any imaging file is read or anything written
            signed_by(run, public_key, "nothing sealed")
        if present(out):
            raise SealError(f"{out}: already exists; give a new folder for the sealed files")
        with staged_folder(out) as staged:  # the folder appears with every sealed file or not at all
            done = [seal_one(run.path / e["name"], staged / f"{e['name']}.sealed",
                             out / f"{e['name']}.sealed", e) for e in print_order(run.manifest, run.path)]
    else:
        done = [seal_one(file, out, out)]
    for d in done:
        say(f"sealed {Path(d['file']).name} into {d['sealed']} (mode 0600)")
    if whole_run:
        say_vouched(public_key, "sealed")
    if as_json:
        typer.echo(json.dumps({"recipient_key": str(to), "recipient_fingerprint": fp, "sealed": done,
                               "signature_checked": public_key is not None}, indent=2))
    else:
        echo(f"sealed {len(done)} file(s) to recipient {fp} ({to}): check this fingerprint with the "
                   f"recipient before sending")


@reports_errors
def unseal_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A sealed file.")],
    key: Annotated[Path, typer.Option("--key", metavar="KEY.pem", help="The recipient's private key.")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="Where the opened file goes (new).")],
    allow_readable_secret: Annotated[bool, typer.Option(
        READABLE_SECRET_FLAG, help="Use a private key even if its group or others may read it (refused "
                                   "otherwise).")] = False,
    manifest: Annotated[Path | None, typer.Option(
        "--manifest", metavar="FILE", help="The run's manifest.json: the opened file must be the one it "
                                           "lists under its name, byte for byte.")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print what was opened as JSON: its name, --out, bytes, SHA-256, the manifest and "
                       "run that vouched for it (null without --manifest).")] = False,
) -> None:
    """Open a sealed file with the recipient's private key (fails with any other key) and, with
    --manifest, check it is byte for byte the deliverable the run's manifest lists."""
    from poolgen.deliverables.seal import SealError, load_private, unseal  # lazy: start-up time
    from poolgen.run.folder import read_manifest  # lazy: start-up time

    private = load_private(key, allow_readable_secret)
    name, data = unseal(read_input(file, "sealed", SealError, MAX_SEALED_BYTES), private, printable(file))
    checked, run_id = "not checked against a manifest (give --manifest)", None
    if manifest is not None:
        _, doc = read_manifest(manifest)
        listed = [f for f in doc.get("deliverables", []) if f.get("name") == name and "sha256" in f]
        digest = hashlib.sha256(data).hexdigest()
        if not listed:
            raise SealError(f"{file}: opened {name}, which {manifest} does not list; nothing written")
        if listed[0]["sha256"] != digest or listed[0].get("bytes") != len(data):
            raise SealError(f"{file}: opened {name}, but it is not the file {manifest} lists ({len(data):,} "
                            f"bytes, SHA-256 {digest}; listed {listed[0].get('bytes')} bytes, "
                            f"{listed[0]['sha256']}); nothing written")
        run_id = doc.get("run_id")
        checked = f"it is the {name} of run {run_id}, byte for byte"
    write_secret(out, data, what="opened file")  # complete under its name, or absent
    say(f"opened {name} into {out} (mode 0600): {checked}")
    if as_json:
        typer.echo(json.dumps({"file": str(file), "name": name, "out": str(out), "bytes": len(data),
                               "sha256": hashlib.sha256(data).hexdigest(),
                               "manifest": None if manifest is None else str(manifest), "run_id": run_id},
                              indent=2))


@reports_errors
def recipient_new(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="Folder for the two key files.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the key files and fingerprint as "
                                                         "JSON.")] = False,
) -> None:
    """Create DIR/recipient-key.pem (private, mode 0600) and DIR/recipient-key.pub.pem: the key pair a
    printer or validation system holds to open sealed deliverables; print the public key's
    fingerprint, which the sender reads back before sealing."""
    from poolgen.deliverables.seal import load_public, new_recipient_key, recipient_fingerprint  # lazy

    private, public = new_recipient_key(folder)
    fp = recipient_fingerprint(load_public(public))
    say(f"wrote private key {private} (mode 0600) and public key {public}, fingerprint {fp}")
    if as_json:
        typer.echo(json.dumps({"private_key": str(private), "public_key": str(public), "fingerprint": fp},
                              indent=2))
    else:
        echo(f"recipient key fingerprint: {fp}")
