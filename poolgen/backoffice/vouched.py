"""A run as the back office opens it (docs/back-office.md, section 2): its manifest read and checked
(and, given the public key, its signature verified), and a validation file read only if it is the
file the manifest lists, byte for byte (its size, then its SHA-256), a regular file in the run folder
(not a link, pipe or device), in the manifest's run, tier and key, sorted. A command that pays or
records (`open_signed`) opens only a run whose signature it verified: a manifest edited on disk (a
validation file re-made with the desk's own key and re-listed, say) would change what it pays. The
desk and the sales ledger's recording methods take only a `SignedRun`, which verifies the signature when
it is built, so a script using the library cannot pay against an edited manifest either."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.read.manifest import Manifest, ManifestError, signature_problem
from poolgen.backoffice.errors import BackOfficeError
from poolgen.deliverables.validation import TIERS, ValidationError, ValidationFile, file_head, key_check
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
    validation: Mapping[str, Mapping[str, Any]]  # tier -> a read-only copy of its deliverables entry

    @property
    def path(self) -> Path:
        return self.folder.path


@dataclass(frozen=True)
class SignedRun(Run):
    """A run whose manifest signature verifies with `public_key`: the only run the desk and the sales
    ledger pay or record from. Valid by construction (`open_signed` makes one, `dataclasses.replace`
    builds it anew): the signature is verified over the folder's manifest bytes, and the manifest read,
    its parsed form and every field above must be those bytes' own, so no edited copy gets through; and
    they must still be when the desk or the sales ledger uses it (`unchanged`), so no copy edited in
    place does either."""

    public_key: Ed25519PublicKey = field(repr=False, compare=False)
    signature: bytes = field(repr=False)
    _signed: dict[str, Any] = field(init=False, repr=False, compare=False)  # set when built

    def __post_init__(self) -> None:
        where = self.folder.path / SIGNATURE
        if not isinstance(self.public_key, Ed25519PublicKey) or not isinstance(self.signature, bytes):
            raise BackOfficeError(f"{where}: a signed run needs the Ed25519 public key and the signature")
        problem = signature_problem(self.folder.manifest_bytes, self.signature, self.public_key)
        if problem:
            raise BackOfficeError(f"{where}: {problem}; the run is not the signed one")
        try:
            parsed = Manifest.parse(self.folder.manifest_bytes)
        except ManifestError as exc:
            raise BackOfficeError(f"{where}: the signed manifest is not valid: {exc}") from None
        if parsed.pools != self.folder.parsed.pools or parsed.kind != self.folder.parsed.kind:
            raise self._edited()
        object.__setattr__(self, "_signed", parsed.doc)  # the bytes' own document, shared with nothing
        self.unchanged()
        # read-only copies of the signed entries, however the run was built (a replace() given a dict)
        object.__setattr__(self, "validation", _stated(parsed.doc, parsed.kind)[-1])

    def unchanged(self) -> SignedRun:
        """This run, if everything it holds is still its signed bytes' own; else a BackOfficeError. Its
        fields are frozen and its validation entries read-only copies, but the manifest, its parsed
        form's document and pool entries are dicts a script can change after the run was built (a
        validation file re-made with the desk's key and the manifest's entry pointed at it): the desk
        and the sales ledger ask again before they pay or record (`signed`), comparing them with the
        document the signed bytes gave when the run was built, which nothing else holds (a copy, not a
        re-read: reading a manifest costs a sale about a millisecond)."""
        doc, folder = self._signed, self.folder
        stated = tuple(getattr(self, f.name) for f in fields(Run))[1:]
        if doc != folder.manifest or doc != folder.parsed.doc or stated != _stated(doc, folder.parsed.kind) \
                or doc["pools"] != [p.raw for p in folder.parsed.pools]:
            raise self._edited()
        return self

    def _edited(self) -> BackOfficeError:
        return BackOfficeError(f"{self.folder.path / SIGNATURE}: the manifest given is not the signed bytes' "
                               "(edited after they were read); the back office pays and records only from "
                               "the signed one")


def open_signed(run: Path, public_key: Path | None, command: str) -> SignedRun:
    """`open_vouched` for a command that pays or records (`command` names it): the public key is
    required, and an unsigned run is refused."""
    if public_key is None:
        raise BackOfficeError(f"{command}: give --public-key FILE: it pays and records only from a run "
                              "whose manifest signature it verified")
    folder = _folder(run)
    if not os.path.lexists(folder.path / SIGNATURE):
        raise BackOfficeError(f"{folder.path}: an unsigned run (no {SIGNATURE}); the back office pays "
                              "and records only from a signed run")
    key = load_public_key(public_key)
    sig = read_input(folder.path / SIGNATURE, "signature", BackOfficeError, limit=1024)
    return SignedRun(folder, *_stated(folder.manifest, folder.kind), public_key=key, signature=sig)


def open_vouched(run: Path, public_key: Path | None = None) -> Run:
    """The run folder's manifest, checked; with `public_key`, its signature verified first (a
    `SignedRun`)."""
    if public_key is not None:
        return open_signed(run, public_key, "")
    folder = _folder(run)
    return Run(folder, *_stated(folder.manifest, folder.kind))


def signed(run: Run, what: str) -> SignedRun:
    """`run` if its signature was verified (a `SignedRun`) and nothing it holds was changed since
    (`SignedRun.unchanged`), else the error `what` needs a signed run."""
    if not isinstance(run, SignedRun):
        raise BackOfficeError(f"{run.path}: {what} only from a run whose manifest signature was verified "
                              "(open_signed with its public key)")
    return run.unchanged()


def _folder(run: Path) -> RunFolder:
    try:
        return open_run(run)
    except RunError as exc:
        raise BackOfficeError(str(exc)) from None


def _stated(doc: dict[str, Any], kind: str) -> tuple[str, str, int | None, int | None, int | None,
                                                      frozenset[str], Mapping[str, Mapping[str, Any]]]:
    """Run's fields after `folder`, as the manifest `doc` states them: the validation entries as
    read-only copies, so a script cannot point the run at another file through them (nor through the
    manifest's own entries, which they no longer are)."""
    pr: dict[str, Any] = doc["print"] if isinstance(doc.get("print"), dict) else {}
    files: list[Any] = doc["deliverables"] if isinstance(doc.get("deliverables"), list) else []
    validation = MappingProxyType({f["tier"]: _frozen(f) for f in files if isinstance(f, dict)
                                   and f.get("role") in ("validation", "validation-high")
                                   and f.get("tier") in TIERS})
    free = pr.get("free_ticket_tiers", [])
    return (str(doc["run_id"]), kind, doc["game"].get("number"),
            _int(pr.get("virn_digits")), _int(pr.get("high_tier_cents")),
            frozenset(t for t in free if isinstance(t, str)) if isinstance(free, list) else frozenset(),
            validation)


def _frozen(value: Any) -> Any:
    """A read-only copy of a JSON value: each object a read-only mapping of a new dict, each array a
    tuple (a MappingProxyType of the manifest's own dict would show that dict's later edits)."""
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


OPTIONS = {"low": "--validation-key", "high": "--high-validation-key"}  # what every command names each key


def check_key(run: Run, tier: str, key: bytes) -> None:
    """Refuse a key that is not the one the manifest names for the run's `tier` validation file (its key
    check): the other tier's key, say, given for this one."""
    entry = run.validation.get(tier) or {}
    given = key_check(key)
    if entry.get("key_check") != given:
        other = "high" if tier == "low" else "low"
        if (run.validation.get(other) or {}).get("key_check") == given:
            raise BackOfficeError(f"{run.path / TIERS[tier]}: the key given as {OPTIONS[tier]} is the run's "
                                  f"{other}-tier key (key check {given}): give it as {OPTIONS[other]}")
        raise BackOfficeError(f"{run.path / TIERS[tier]}: the {tier}-tier key given is not this file's key "
                              f"(the manifest names key check {entry.get('key_check')})")


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
    check_key(run, tier, key)
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
    problem = _header_problem(data, vf.head, run, tier, key)
    if problem:
        raise BackOfficeError(f"{path}: {problem} (docs/validation.md section 3: exactly its nine fields, "
                              "each of its JSON type, in canonical form); refusing it")
    problem = vf.sorted_problem()
    if problem:
        raise BackOfficeError(f"{path}: {problem}; refusing it")
    return vf, digest


def _header_problem(data: bytes, head: dict[str, Any], run: Run, tier: str, key: bytes) -> str | None:
    """What makes the header of a validation file other than the one section 3 writes for this run, tier
    and key, byte for byte, or None: a field missing, more, of another value or of another JSON type
    (`465.0` and `true` are no integers, though Python compares them equal to 465 and 1: audit refuses
    them), or the form (spacing, key order, escapes)."""
    line = section_3_head(run, tier, key)
    want = json.loads(line)
    extra = sorted(set(head) - set(want))
    if extra:
        return f"its header holds field(s) {extra} section 3 does not give"
    for k, v in want.items():
        if k not in head:
            return f"its header has no {k}"
        if type(head[k]) is not type(v) or head[k] != v:
            return f"its header's {k} is {json.dumps(head[k])}, not {json.dumps(v)}"
    if data[:data.index(b"\n") + 1] != line:
        return "its header is not in canonical form"
    return None


def section_3_head(run: Run, tier: str, key: bytes) -> bytes:
    """The header line (with its LF) docs/validation.md section 3 writes for the run's `tier` file under
    `key`: the only one the desk reads a validation file with (the desk index records it)."""
    tickets = sum(p.tickets for p in run.folder.parsed.pools)
    return file_head(tier, key, run.run_id, run.game or 0, run.high_tier_cents or 0, tickets)


def checked_pool_file(run: Run, pool: str) -> Path:
    """The pool's file, its SHA-256 the manifest's (else a BackOfficeError)."""
    try:
        entry = run.folder.entry(pool)
        path = run.folder.pool_file(pool)
    except RunError as exc:
        raise BackOfficeError(str(exc)) from None
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise BackOfficeError(f"{path}: not a regular file (a link, pipe or device); refusing it")
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    if h.hexdigest() != entry.file_sha256:
        raise BackOfficeError(f"{path}: its SHA-256 is not the manifest's; refusing it")
    return path
