"""A run as the back office opens it (docs/back-office.md, section 2): its manifest read and checked
(and, given the public key, its signature verified), and a validation file read only if it is the
file the manifest lists, byte for byte (its size, then its SHA-256), a regular file in the run folder
(not a link, pipe or device), in the manifest's run, tier and key, sorted. A command that pays or
records (`open_signed`) opens only a run whose signature it verified: a manifest edited on disk (a
validation file re-made with the desk's own key and re-listed, say) would change what it pays."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.read.manifest import signature_problem
from poolgen.backoffice.errors import BackOfficeError
from poolgen.deliverables.validation import TIERS, ValidationError, ValidationFile, key_check
from poolgen.errors import RunError
from poolgen.files.read import read_input
from poolgen.run.folder import RunFolder, open_run
from poolgen.run.manifest import SIGNATURE
from poolgen.run.signing import load_public_key


@dataclass(frozen=True)
class Run:
    """What the back office needs of a run, from its manifest."""

    folder: RunFolder
    run_id: str
    kind: str  # "printed" or "einstant"
    game: int | None
    virn_digits: int | None
    high_tier_cents: int | None
    free_tiers: frozenset[str]
    validation: dict[str, dict[str, Any]]  # tier -> the manifest's deliverables entry

    @property
    def path(self) -> Path:
        return self.folder.path


def open_signed(run: Path, public_key: Path | None, command: str) -> Run:
    """`open_vouched` for a command that pays or records (`command` names it): the public key is
    required, and an unsigned run is refused."""
    if public_key is None:
        raise BackOfficeError(f"{command}: give --public-key FILE: it pays and records only from a run "
                              "whose manifest signature it verified")
    return open_vouched(run, public_key)


def open_vouched(run: Path, public_key: Path | None = None) -> Run:
    """The run folder's manifest, checked; with `public_key`, its signature verified first."""
    try:
        folder = open_run(run)
    except RunError as exc:
        raise BackOfficeError(str(exc)) from None
    if public_key is not None:
        if not os.path.lexists(folder.path / SIGNATURE):
            raise BackOfficeError(f"{folder.path}: an unsigned run (no {SIGNATURE}); the back office pays "
                                  "and records only from a signed run")
        key = load_public_key(public_key)
        sig = read_input(folder.path / SIGNATURE, "signature", BackOfficeError, limit=1024)
        problem = signature_problem(folder.manifest_bytes, sig, key)
        if problem:
            raise BackOfficeError(f"{folder.path / SIGNATURE}: {problem}; the run is not the signed one")
    doc = folder.manifest
    pr: dict[str, Any] = doc["print"] if isinstance(doc.get("print"), dict) else {}
    files: list[Any] = doc["deliverables"] if isinstance(doc.get("deliverables"), list) else []
    validation = {f["tier"]: f for f in files if isinstance(f, dict)
                  and f.get("role") in ("validation", "validation-high") and f.get("tier") in TIERS}
    free = pr.get("free_ticket_tiers", [])
    return Run(folder, str(doc["run_id"]), folder.kind, doc["game"].get("number"),
               _int(pr.get("virn_digits")), _int(pr.get("high_tier_cents")),
               frozenset(t for t in free if isinstance(t, str)) if isinstance(free, list) else frozenset(),
               validation)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_validation(run: Run, tier: str, key: bytes) -> tuple[ValidationFile, str]:
    """The run's `tier` validation file and its SHA-256, read only as the manifest vouches for it and
    opened by `key`; anything else a BackOfficeError."""
    entry = run.validation.get(tier)
    name = TIERS[tier]
    path = run.path / name
    if entry is None:
        raise BackOfficeError(f"{run.path}: the manifest lists no {tier}-tier validation file")
    if entry.get("name") != name or not isinstance(entry.get("bytes"), int) \
            or not isinstance(entry.get("sha256"), str):
        raise BackOfficeError(f"{run.path}: the manifest's {tier}-tier validation entry is not usable")
    if entry.get("key_check") != key_check(key):
        raise BackOfficeError(f"{path}: the {tier}-tier key given is not this file's key "
                              f"(the manifest names key check {entry.get('key_check')})")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise BackOfficeError(f"{path}: missing from the run folder") from None
    if not stat.S_ISREG(st.st_mode):
        raise BackOfficeError(f"{path}: not a regular file (a link, pipe or device); refusing it")
    if st.st_size != entry["bytes"]:
        raise BackOfficeError(f"{path}: {st.st_size:,} bytes, not the {entry['bytes']:,} the manifest "
                              "vouches for; refusing it")
    data = read_input(path, "validation", BackOfficeError, limit=entry["bytes"])
    digest = hashlib.sha256(data).hexdigest()
    if digest != entry["sha256"]:
        raise BackOfficeError(f"{path}: its SHA-256 is not the one the manifest vouches for; the file was "
                              "changed, refusing it")
    try:
        vf = ValidationFile.parse(data, path)
    except ValidationError as exc:
        raise BackOfficeError(str(exc)) from None
    head = vf.head
    if (head.get("run_id"), head.get("tier"), head.get("key_check")) != (run.run_id, tier, key_check(key)):
        raise BackOfficeError(f"{path}: its header does not name run {run.run_id}, the {tier} tier and "
                              "the key given")
    problem = vf.sorted_problem()
    if problem:
        raise BackOfficeError(f"{path}: {problem}; refusing it")
    return vf, digest
