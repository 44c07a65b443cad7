"""The ceremony file and the parties' contribution files (docs/ceremony.md, "Files").

The ceremony file is rewritten whole at each step (temporary file, fsync, rename; mode 0600: it holds
the reveals), so a crash leaves the old or the new file. Loading one checks its shape, that its
transcript still hashes to `transcript_sha256`, and every signature in it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.read.manifest import SIGNATURE, signature_problem
from poolgen.files.read import JSON_STRING, distinct_keys, nesting_depth, read_input
from poolgen.files.write import canonical_bytes, present, resolved, write_atomic, write_secret
from poolgen.limits import MAX_MANIFEST_BYTES, MAX_NESTING
from poolgen.seeds import transcript as tx
from poolgen.seeds.beacon import MAX_ROUND
from poolgen.seeds.ceremony import (
    FORMAT,
    ID,
    NAME,
    VALUE_BYTES,
    Ceremony,
    CeremonyError,
    parse_time,
)
from poolgen.seeds.rules import check_rules

CONTRIBUTION = "poolgen-contribution/2"
REVEALED = "poolgen-revealed/1"
_KEYS = {"format", "transcript", "transcript_sha256", "commitments", "reveals", "round", "seed_commitment",
         "run", "abort"}


def _refuse_run_folder(path: Path, what: str) -> None:
    folder = resolved(path).parent
    if any(os.path.exists(f / "manifest.json") for f in (folder, *folder.parents)):
        raise CeremonyError(f"{path}: would put a {what} inside a run folder (it holds manifest.json)")


def create_file(path: Path, ceremony: Ceremony) -> None:
    _refuse_run_folder(path, "ceremony file")
    write_secret(path, canonical_bytes(ceremony.to_json()), what="ceremony file")


def save(path: Path, ceremony: Ceremony) -> None:
    """Replace the ceremony file (temporary file, rename; mode 0600: it holds reveals), unless it changed
    since `ceremony` was loaded from it: two parties' steps at once each read the file, then wrote it back
    whole, and the first one's commitment or reveal was lost though it had said it was recorded. Under
    the file's lock (flock(2), each writer's for the moment of its check and rename), the file must still
    hold the bytes loaded; the step that finds it changed saves nothing and is run again."""
    data = canonical_bytes(ceremony.to_json())
    if ceremony.loaded is None or ceremony.loaded[0] != str(Path(path).resolve()):  # a new file, a copy
        write_atomic(path, data, mode=0o600)
        os.chmod(path, 0o600)
        return
    with _locked(path) as current:
        if hashlib.sha256(current).hexdigest() != ceremony.loaded[1]:
            raise CeremonyError(f"{path}: changed since this command read it (another party's step "
                                "meanwhile?); nothing was saved: run the command again")
        write_atomic(path, data, mode=0o600)
        os.chmod(path, 0o600)
    ceremony.loaded = (ceremony.loaded[0], hashlib.sha256(data).hexdigest())


@contextmanager
def _locked(path: Path) -> Iterator[bytes]:
    """Hold the exclusive lock of the file now at `path` and yield its bytes. A writer renames a new file
    into place: a lock taken on the file it replaced is let go and taken again on the new one."""
    while True:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as exc:
            raise CeremonyError(f"{path}: cannot read the ceremony file again to save it: "
                                f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # a save holds it for a moment; a killed one lets it go
            if os.fstat(fd).st_ino == os.lstat(path).st_ino:
                break
        except FileNotFoundError:
            pass
        except BaseException:  # Ctrl-C while it waits
            os.close(fd)
            raise
        os.close(fd)
    try:
        with os.fdopen(os.dup(fd), "rb") as f:
            current = f.read(MAX_MANIFEST_BYTES + 1)
        yield current
    finally:
        os.close(fd)


def saved(path: Path, ceremony: Ceremony) -> bool:
    """Whether the ceremony file at `path` may hold `ceremony` as `save` writes it: False only if it is
    read and is not (a save can fail, or be interrupted, after its rename has put the new file in place)."""
    try:
        return path.read_bytes() == canonical_bytes(ceremony.to_json())
    except OSError:
        return True


def publish(path: Path, ceremony: Ceremony, source: Path, force: bool = False) -> None:
    """Write the pre-sale bundle (no reveal) as a new public file; with `force`, over an existing file
    (never a folder, nor the ceremony file `source` it is made from)."""
    _refuse_run_folder(path, "ceremony bundle")
    if present(path):
        if not force:
            raise CeremonyError(f"{path}: already exists; not overwriting it (--force replaces it)")
        if os.path.isdir(path):
            raise CeremonyError(f"{path}: is a folder; give the bundle's file name")
        with suppress(OSError):
            if os.path.samefile(path, source):
                raise CeremonyError(f"{path}: is the ceremony file itself; give the bundle another name")
    write_atomic(path, canonical_bytes(ceremony.public_json()) + b"\n", mode=0o644)


def _json(path: Path, what: str) -> object:
    return _parsed(read_input(path, what, CeremonyError))


def _parsed(data: bytes) -> object:
    """The JSON document of `data` (None if it is not one, or nests deeper than the bound)."""
    try:
        text = data.decode("utf-8")
        if nesting_depth(text, JSON_STRING) > MAX_NESTING:
            return None
        return json.loads(text, object_pairs_hook=distinct_keys)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def _bad(path: Path, where: str) -> CeremonyError:
    return CeremonyError(f"{path}: {where}: missing or of the wrong type")


def _hex(value: object, digits: int) -> bool:
    return isinstance(value, str) and len(value) == digits and all(c in "0123456789abcdef" for c in value)


def _text(value: object, pattern: Any) -> bool:
    return isinstance(value, str) and bool(pattern.match(value))


def _check_transcript(path: Path, t: object) -> dict[str, Any]:
    if not isinstance(t, dict) or set(t) - {"book_key_check", "follows", "printed"} != {
                "id", "spec_sha256", "code_sha256", "game", "pools", "run_id", "parties", "beacon"} \
            or ("book_key_check" in t and not _hex(t["book_key_check"], 16)):
        raise _bad(path, "transcript")
    follows = t.get("follows", [])
    if not isinstance(follows, list):
        raise _bad(path, "transcript.follows")
    for i, f in enumerate(follows):
        if not isinstance(f, dict) or set(f) != {"run_id", "manifest_sha256", "transcript_sha256"} \
                or not _text(f["run_id"], ID) or not _hex(f["manifest_sha256"], 64) \
                or not _hex(f["transcript_sha256"], 64):
            raise _bad(path, f"transcript.follows[{i}]")
    printed = t.get("printed", {"number": None, "regulation": "-"})
    if not isinstance(printed, dict) or set(printed) != {"number", "regulation"} \
            or not (printed["number"] is None or (type(printed["number"]) is int
                                                   and 0 <= printed["number"] <= MAX_ROUND)) \
            or not isinstance(printed["regulation"], str) or not printed["regulation"]:
        raise _bad(path, "transcript.printed")
    ok = (_text(t["id"], ID) and _hex(t["spec_sha256"], 64) and _hex(t["code_sha256"], 64)
          and _text(t["game"], ID) and _text(t["run_id"], ID) and isinstance(t["pools"], list)
          and all(_text(p, ID) for p in t["pools"]) and isinstance(t["parties"], list)
          and 2 <= len(t["parties"]) <= 16)
    if not ok:
        raise _bad(path, "transcript")
    for i, p in enumerate(t["parties"]):
        if not isinstance(p, dict) or set(p) != {"name", "public_key"} or not _text(p["name"], NAME) \
                or not _hex(p["public_key"], 64):
            raise _bad(path, f"transcript.parties[{i}]")
    b = t["beacon"]
    if not isinstance(b, dict) or set(b) != {"chain", "round", "reveals_close"} or not _hex(b["chain"], 64) \
            or not isinstance(b["round"], int) or isinstance(b["round"], bool) \
            or not 1 <= b["round"] <= MAX_ROUND:
        raise _bad(path, "transcript.beacon")
    parse_time(b["reveals_close"], f"{path}: transcript.beacon.reveals_close")
    return t


def _entries(path: Path, doc: dict[str, Any], key: str, names: list[str],
             fields: dict[str, int]) -> list[Any]:
    entries = doc.get(key)
    if not isinstance(entries, list) or len(entries) != len(names):
        raise _bad(path, key)
    for i, (e, name) in enumerate(zip(entries, names, strict=True)):
        if e is None:
            continue
        if not isinstance(e, dict) or set(e) != {"name", *fields} or e["name"] != name:
            raise _bad(path, f"{key}[{i}]")
        for f, digits in fields.items():
            if not (_hex(e[f], digits) if digits else isinstance(e[f], str)):
                raise _bad(path, f"{key}[{i}].{f}")
    return entries


def load(path: Path, *, ending: bool = False) -> Ceremony:
    """A ceremony file, checked: shape, transcript hash, every signature. `ending`: for abort and publish,
    which take no step toward a seed: a round due less than 600 s after reveals close is let through (a
    ceremony begun before that rule can still be aborted and its abort published, docs/ceremony.md)."""
    data = read_input(path, "ceremony", CeremonyError)
    doc = _parsed(data)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CeremonyError(f"{path}: not a ceremony file (format is not {FORMAT!r})")
    if set(doc) != _KEYS:
        raise CeremonyError(f"{path}: not a ceremony file (its fields are {', '.join(sorted(_KEYS))})")
    t = _check_transcript(path, doc["transcript"])
    names = [p["name"] for p in t["parties"]]
    commitments = _entries(path, doc, "commitments", names, {"commitment": 64, "signature": 128})
    reveals = _entries(path, doc, "reveals", names, {"value": 64, "revealed_at": 0, "signature": 128})
    r = doc["round"]
    if r is not None and (not isinstance(r, dict) or set(r) != {"round", "signature", "randomness"}
                          or not isinstance(r["round"], int) or not _hex(r["signature"], 96)
                          or not _hex(r["randomness"], 64)):
        raise _bad(path, "round")
    if r is not None and (isinstance(r["round"], bool) or r["round"] != t["beacon"]["round"]):
        raise CeremonyError(f"{path}: round: not the round the transcript names "
                            f"({t['beacon']['round']}); a ceremony is sealed only with its own round")
    if (r is None) != (doc["seed_commitment"] is None):
        raise CeremonyError(f"{path}: round and seed_commitment: a sealed ceremony has both, an open one "
                            "neither")
    for key in ("seed_commitment", "run"):
        good = _hex(doc[key], 64) if key == "seed_commitment" else _text(doc[key], ID)
        if doc[key] is not None and not good:
            raise _bad(path, key)
    abort = doc["abort"]
    if abort is not None and (not isinstance(abort, dict) or set(abort) != {"name", "reason", "signature"}
                              or abort["name"] not in names or not isinstance(abort["reason"], str)
                              or not abort["reason"].isprintable() or not _hex(abort["signature"], 128)):
        raise _bad(path, "abort")
    if not _hex(doc["transcript_sha256"], 64):
        raise _bad(path, "transcript_sha256")
    now = tx.transcript_hash(t)
    if now != doc["transcript_sha256"]:
        raise CeremonyError(f"ceremony {t['id']}: the transcript was changed after the ceremony began "
                            f"(it hashes to {now[:16]}..., {doc['transcript_sha256'][:16]}... at new)")
    check_rules(t, gap=not ending)  # a transcript hashed by hand is held to what `new` promises
    ceremony = Ceremony(t, doc["transcript_sha256"], commitments, reveals, r, doc["seed_commitment"],
                        doc["run"], abort)
    ceremony.check_signatures()
    ceremony.loaded = (str(Path(path).resolve()), hashlib.sha256(data).hexdigest())
    return ceremony


def followed(path: Path, game: str, pools: tuple[str, ...], run_id: str,
             public_key: Ed25519PublicKey) -> dict[str, str]:
    """The `follows` entry of an earlier order of these pools (`ceremony new --follows`): its signed
    manifest's SHA-256 and its ceremony's transcript hash. The manifest's signature (manifest.sig beside
    it) must verify with `public_key`, the operator's key that signs every order of the game, before
    anything in it is read (the auditor checks it again, verify --earlier-manifest); the parties see
    here that it is a run of this game and these pools."""
    data = read_input(path, "manifest", CeremonyError, MAX_MANIFEST_BYTES)
    try:
        signature = read_input(path.with_name(SIGNATURE), "manifest signature", CeremonyError)
        problem = signature_problem(data, signature, public_key)
    except CeremonyError as exc:  # absent, a folder, a pipe, too large: said as that file's problem
        problem = str(exc)
    if problem:
        raise CeremonyError(f"--follows {path}: {problem}: only an order signed with the operator's key "
                            "(--public-key) is followed")
    doc = _parsed(data)  # the bytes just verified and hashed, not the file read again
    entry = doc.get("ceremony") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or not isinstance(doc.get("game"), dict) \
            or not _text(doc.get("run_id"), ID) or not isinstance(doc.get("pools"), list) \
            or not all(isinstance(p, dict) for p in doc["pools"]):
        raise CeremonyError(f"--follows {path}: not a run's manifest.json")
    if not isinstance(entry, dict) or not _hex(entry.get("transcript_sha256"), 64):
        raise CeremonyError(f"--follows {path}: run {doc['run_id']} was seeded by no ceremony: no bundle of "
                            "it can be mistaken for a second seed, so there is nothing to follow")
    if doc["game"].get("rules") != game:
        raise CeremonyError(f"--follows {path}: run {doc['run_id']} is of game {doc['game'].get('rules')}, "
                            f"not {game}")
    if doc["run_id"] == run_id:
        raise CeremonyError(f"--follows {path}: run {run_id} is this ceremony's own run id; a reorder is a "
                            "new run (--run-id)")
    if not {p.get("id") for p in doc["pools"]} & set(pools):
        raise CeremonyError(f"--follows {path}: run {doc['run_id']} shares none of pools "
                            f"{', '.join(pools)}: only an earlier order of the same pools is followed")
    return {"run_id": doc["run_id"], "manifest_sha256": hashlib.sha256(data).hexdigest(),
            "transcript_sha256": entry["transcript_sha256"]}


def write_contribution(path: Path, ceremony: Ceremony, name: str, value: bytes) -> None:
    """Create the party's secret contribution file (mode 0600, never overwritten)."""
    _refuse_run_folder(path, "contribution")
    doc = {"format": CONTRIBUTION, "ceremony": ceremony.id, "transcript_sha256": ceremony.transcript_sha256,
           "party": name, "value": value.hex()}
    write_secret(path, canonical_bytes(doc) + b"\n", what="contribution file")


def refuse_unused_contribution(path: Path, ceremony: Ceremony, name: str) -> None:
    """Before `name` commits (the ceremony file holds no commitment of it): refuse a contribution file
    already at `path` that is `name`'s to this ceremony, saying it was never used (a commit killed before
    it recorded the commitment), where "already exists" would read as if it had been committed."""
    if not os.path.lexists(path):
        return
    try:
        read_contribution(path, ceremony, name)
    except CeremonyError:  # not this party's contribution to this ceremony: "already exists" says it
        return
    raise CeremonyError(f"{path}: a contribution of {name} to ceremony {ceremony.id} whose commitment the "
                        "ceremony file does not hold (a commit interrupted before recording it?); unless a "
                        "published bundle holds its commitment it was never used: remove it or give another "
                        "--contribution")


def read_contribution(path: Path, ceremony: Ceremony, name: str) -> bytes:
    """A party's contribution, from a file made for this ceremony and this party."""
    doc = _json(path, "contribution")
    if not isinstance(doc, dict) or doc.get("format") != CONTRIBUTION \
            or not _hex(doc.get("value"), 2 * VALUE_BYTES):
        raise CeremonyError(f"{path}: not a contribution file")
    if doc.get("ceremony") != ceremony.id or doc.get("transcript_sha256") != ceremony.transcript_sha256:
        raise CeremonyError(f"{path}: is a contribution to ceremony {doc.get('ceremony')!r}, not to this "
                            f"ceremony {ceremony.id!r}")
    if doc.get("party") != name:
        raise CeremonyError(f"{path}: is party {doc.get('party')!r}'s contribution, not {name!r}'s")
    return bytes.fromhex(doc["value"])


def reveal_record(contribution: Path) -> Path:
    """Where a party's reveal command records the commitments it revealed under: beside its
    contribution file, named after it with `.revealed` added."""
    return contribution.with_name(contribution.name + ".revealed")


def revealed_before(contribution: Path, ceremony: Ceremony, closed: str) -> bool:
    """True if this contribution was revealed before, under these same commitments; refused if it was
    revealed under others (a copy of the ceremony with another party's commitment changed: revealing
    into several would let that party pick among seeds once the round is out)."""
    path = reveal_record(contribution)
    if not path.exists():
        return False
    doc = _json(path, "reveal record")
    if not isinstance(doc, dict) or doc.get("format") != REVEALED \
            or not _hex(doc.get("commitments_sha256"), 64) \
            or doc.get("transcript_sha256") != ceremony.transcript_sha256:
        raise CeremonyError(f"{path}: not a reveal record of ceremony {ceremony.id} (poolgen ceremony reveal "
                            "writes it)")
    if doc["commitments_sha256"] != closed:
        raise CeremonyError(f"{contribution}: was revealed under commitments "
                            f"{doc['commitments_sha256'][:16]}..., not these ({closed[:16]}...): one "
                            "contribution is revealed under one set of commitments (did a party's commitment "
                            "change after your reveal? then abort the ceremony)")
    return True


def record_reveal(contribution: Path, ceremony: Ceremony, closed: str) -> None:
    """Record, once, the commitments this contribution is revealed under (a new file, never replaced)."""
    doc = {"format": REVEALED, "ceremony": ceremony.id, "transcript_sha256": ceremony.transcript_sha256,
           "commitments_sha256": closed}
    write_secret(reveal_record(contribution), canonical_bytes(doc) + b"\n", what="reveal record")
