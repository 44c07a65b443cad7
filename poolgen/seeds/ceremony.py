"""A commit-reveal seed ceremony: no party, nor any group short of all of them, chooses the run seed.

Each secret party makes a 32-byte contribution (kept in its own 0600 file) and records only its
commitment; when the last commitment is in, commitments close and the transcript hash fixes them.
Only then do parties reveal; a public party (a future draw result, a beacon pulse named in advance)
reveals a public string. The seed is derived from every reveal, and only if each matches its
commitment. docs/ceremony.md defines every byte; audit/steps/ceremony.py re-implements the checks.

    lp(x)       = len(x) as 8-byte big-endian || x
    commitment  = SHA-256("poolgen/ceremony/commitment/v1" || lp(id) || lp(name) || lp(value))
    transcript  = SHA-256("poolgen/ceremony/transcript/v1" || lp(id) ||
                          for each party in listed order: lp(name) || lp(kind) || lp(c))
                  c = the commitment's 32 bytes (secret), the source's UTF-8 (public)
    seed        = SHA-256("poolgen/ceremony/seed/v1" || transcript ||
                          for each party in listed order: lp(name) || lp(r))
                  r = the contribution's 32 bytes (secret), the public value's UTF-8 (public)

The ceremony file is one JSON document (canonical form) that every step updates; it holds the
reveals once they are made, so it is a secret file (mode 0600) until the game closes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from poolgen.errors import PoolgenError
from poolgen.files.read import JSON_STRING, nesting_depth, read_input
from poolgen.files.write import canonical_bytes, write_atomic, write_secret
from poolgen.limits import MAX_NESTING
from poolgen.seeds.seed import commitment as seed_commitment

FORMAT = "poolgen-ceremony/1"
CONTRIBUTION = "poolgen-contribution/1"
ALGORITHM = "poolgen/ceremony/v1 (docs/ceremony.md)"
VALUE_BYTES = 32
MAX_PUBLIC = 1024  # bytes of a public party's source or value
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class CeremonyError(PoolgenError):
    """A ceremony step is refused; the message says which ceremony, which party and why."""


def _lp(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def commitment(ceremony_id: str, name: str, value: bytes) -> str:
    """The commitment a secret party publishes for its 32-byte contribution (hex)."""
    return hashlib.sha256(b"poolgen/ceremony/commitment/v1" + _lp(ceremony_id.encode()) + _lp(name.encode())
                          + _lp(value)).hexdigest()


@dataclass
class Party:
    name: str
    kind: str  # "secret" or "public"
    commitment: str | None = None  # secret parties
    source: str | None = None  # public parties: where the value will come from, named in advance
    reveal: str | None = None  # hex of the contribution (secret) or the public value (public)

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.name, "kind": self.kind, "reveal": self.reveal}
        if self.kind == "secret":
            out["commitment"] = self.commitment
        else:
            out["source"] = self.source
        return out


@dataclass
class Ceremony:
    """A ceremony file's document; loading one checks its shape, not (yet) its reveals."""

    id: str
    parties: list[Party]
    transcript: str | None = None  # set when commitments close
    sealed: str | None = None  # the seed's commitment, set when sealed

    # ---- queries --------------------------------------------------------------------------------

    def party(self, name: str) -> Party:
        for p in self.parties:
            if p.name == name:
                return p
        names = ", ".join(p.name for p in self.parties)
        raise CeremonyError(f"ceremony {self.id}: no party {name!r} (the parties are {names})")

    def waiting_to_commit(self) -> list[str]:
        return [p.name for p in self.parties if p.kind == "secret" and p.commitment is None]

    def waiting_to_reveal(self) -> list[str]:
        return [p.name for p in self.parties if p.reveal is None]

    def transcript_hash(self) -> str:
        h = hashlib.sha256(b"poolgen/ceremony/transcript/v1" + _lp(self.id.encode()))
        for p in self.parties:
            c = bytes.fromhex(p.commitment or "") if p.kind == "secret" else (p.source or "").encode()
            h.update(_lp(p.name.encode()) + _lp(p.kind.encode()) + _lp(c))
        return h.hexdigest()

    # ---- steps ----------------------------------------------------------------------------------

    def commit(self, name: str, value_commitment: str) -> bool:
        """Record a secret party's commitment; True if that closed the commitments."""
        party = self.party(name)
        if party.kind != "secret":
            raise CeremonyError(f"ceremony {self.id}: party {name!r} is public: it makes no commitment and "
                                "reveals its value after commitments close")
        if self.transcript is not None:
            raise CeremonyError(f"ceremony {self.id}: commitments are closed; party {name!r} cannot change "
                                "its contribution")
        if party.commitment is not None:
            raise CeremonyError(f"ceremony {self.id}: party {name!r} has already committed; a commitment is "
                                "never replaced")
        if not _HEX64.match(value_commitment):
            raise CeremonyError(f"ceremony {self.id}: party {name!r}: a commitment is 64 lower-case hex "
                                "digits")
        party.commitment = value_commitment
        if self.waiting_to_commit():
            return False
        self.transcript = self.transcript_hash()
        return True

    def check_closed(self) -> None:
        """Every secret party has committed, and the commitments are those that closed."""
        waiting = self.waiting_to_commit()
        if waiting or self.transcript is None:
            raise CeremonyError(f"ceremony {self.id}: commitments are not closed yet (waiting for "
                                f"{', '.join(waiting)}); every party commits before anyone reveals")
        now = self.transcript_hash()
        if now != self.transcript:
            raise CeremonyError(f"ceremony {self.id}: the commitments are not the ones that closed "
                                f"(transcript {now[:16]}..., {self.transcript[:16]}... at closing)")

    def reveal_secret(self, name: str, value: bytes) -> None:
        self.check_closed()
        party = self.party(name)
        if party.kind != "secret":
            raise CeremonyError(f"ceremony {self.id}: party {name!r} is public: reveal its value with "
                                "--value")
        if commitment(self.id, name, value) != party.commitment:
            raise CeremonyError(f"ceremony {self.id}: party {name!r}: the revealed contribution does not "
                                "match its commitment")
        party.reveal = value.hex()

    def reveal_public(self, name: str, value: str) -> None:
        self.check_closed()
        party = self.party(name)
        if party.kind != "public":
            raise CeremonyError(f"ceremony {self.id}: party {name!r} is secret: reveal its contribution "
                                "file with --contribution")
        _public_text(value, f"ceremony {self.id}: party {name!r}: the public value")
        if party.reveal is not None and party.reveal != value:
            raise CeremonyError(f"ceremony {self.id}: public party {name!r} has already revealed another "
                                "value")
        party.reveal = value

    def seed(self) -> bytes:
        """The seed, after checking that commitments closed unchanged and every reveal matches."""
        self.check_closed()
        for p in self.parties:
            if p.reveal is None:
                raise CeremonyError(f"ceremony {self.id}: no reveal from party {p.name!r}; every party "
                                    "reveals before the seed is sealed")
            if p.kind == "secret" and commitment(self.id, p.name, bytes.fromhex(p.reveal)) != p.commitment:
                raise CeremonyError(f"ceremony {self.id}: party {p.name!r}: the revealed contribution does "
                                    "not match its commitment")
        assert self.transcript is not None
        h = hashlib.sha256(b"poolgen/ceremony/seed/v1" + bytes.fromhex(self.transcript))
        for p in self.parties:
            r = bytes.fromhex(p.reveal or "") if p.kind == "secret" else (p.reveal or "").encode()
            h.update(_lp(p.name.encode()) + _lp(r))
        return h.digest()

    def seal(self) -> bytes:
        seed = self.seed()
        self.sealed = seed_commitment(seed)
        return seed

    def sealed_seed(self) -> bytes:
        """The seed of a sealed ceremony (for `generate --ceremony`), checked again from the reveals."""
        if self.sealed is None:
            raise CeremonyError(f"ceremony {self.id}: not sealed yet (poolgen ceremony seal)")
        seed = self.seed()
        if seed_commitment(seed) != self.sealed:
            raise CeremonyError(f"ceremony {self.id}: the reveals do not give the seed that was sealed")
        return seed

    def manifest_entry(self) -> dict[str, Any]:
        """What the run's manifest records: names, commitments, public values, the transcript hash."""
        parties = []
        for p in self.parties:
            if p.kind == "secret":
                parties.append({"name": p.name, "kind": "secret", "commitment": p.commitment})
            else:
                parties.append({"name": p.name, "kind": "public", "source": p.source, "value": p.reveal})
        return {"format": FORMAT, "algorithm": ALGORITHM, "id": self.id, "parties": parties,
                "transcript_sha256": self.transcript}

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "id": self.id, "parties": [p.to_json() for p in self.parties],
                "transcript_sha256": self.transcript, "seed_commitment": self.sealed}


def _public_text(value: str, what: str) -> None:
    if not value.strip() or len(value.encode()) > MAX_PUBLIC:
        raise CeremonyError(f"{what} is 1 to {MAX_PUBLIC} bytes of text, not blank")


def new_ceremony(ceremony_id: str, secret: list[str], public: list[tuple[str, str]]) -> Ceremony:
    """A ceremony of the named secret parties and (name, source) public parties, in that order."""
    if not _ID.match(ceremony_id):
        raise CeremonyError(f"ceremony id {ceremony_id!r}: use letters, digits, '.', '_' and '-' only, "
                            "starting with a letter or digit (at most 128)")
    names = [*secret, *(n for n, _ in public)]
    for name in names:
        if not _NAME.match(name):
            raise CeremonyError(f"ceremony {ceremony_id}: party name {name!r}: use letters, digits, '.', '_' "
                                "and '-' only, starting with a letter or digit (at most 64)")
        if names.count(name) > 1:
            raise CeremonyError(f"ceremony {ceremony_id}: party {name!r} is named twice")
    if not secret or len(names) < 2:
        raise CeremonyError(f"ceremony {ceremony_id}: needs at least two parties, one of them secret")
    for name, source in public:
        _public_text(source, f"ceremony {ceremony_id}: party {name!r}: the source")
    parties = [Party(n, "secret") for n in secret] + [Party(n, "public", source=s) for n, s in public]
    return Ceremony(ceremony_id, parties)


# ---- files --------------------------------------------------------------------------------------

def _refuse_run_folder(path: Path, what: str) -> None:
    folder = Path(path).resolve().parent
    if any((f / "manifest.json").exists() for f in (folder, *folder.parents)):
        raise CeremonyError(f"{path}: would put a {what} inside a run folder (it holds manifest.json)")


def create_file(path: Path, ceremony: Ceremony) -> None:
    _refuse_run_folder(path, "ceremony file")
    write_secret(path, canonical_bytes(ceremony.to_json()), what="ceremony file")


def save(path: Path, ceremony: Ceremony) -> None:
    """Replace the ceremony file (temporary file, rename; mode 0600: it holds reveals)."""
    write_atomic(path, canonical_bytes(ceremony.to_json()), mode=0o600)
    os.chmod(path, 0o600)


def _field(doc: object, key: str, kinds: type | tuple[type, ...], where: str, path: Path) -> Any:
    if not isinstance(doc, dict) or key not in doc or not isinstance(doc[key], kinds):
        raise CeremonyError(f"{path}: {where}{key}: missing or of the wrong type")
    return doc[key]


def _json(path: Path, what: str) -> object:
    """A small JSON file (at most 64 KiB, nested at most MAX_NESTING deep), or None if it is not JSON."""
    data = read_input(path, what, CeremonyError)
    try:
        text = data.decode("utf-8")
        if nesting_depth(text, JSON_STRING) > MAX_NESTING:
            return None
        return json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def load(path: Path) -> Ceremony:
    doc = _json(path, "ceremony")
    if doc is None:
        raise CeremonyError(f"{path}: not a ceremony file (not JSON)")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CeremonyError(f"{path}: not a ceremony file (format is not {FORMAT!r})")
    opt = (str, type(None))
    parties = []
    for i, p in enumerate(_field(doc, "parties", list, "", path)):
        where = f"parties[{i}]."
        kind = _field(p, "kind", str, where, path)
        if kind not in ("secret", "public"):
            raise CeremonyError(f"{path}: {where}kind: {kind!r} is neither secret nor public")
        party = Party(_field(p, "name", str, where, path), kind, reveal=_field(p, "reveal", opt, where, path))
        if kind == "secret":
            party.commitment = _field(p, "commitment", opt, where, path)
            for key, value in (("commitment", party.commitment), ("reveal", party.reveal)):
                if value is not None and not _HEX64.match(value):
                    raise CeremonyError(f"{path}: {where}{key}: not 64 lower-case hex digits")
        else:
            party.source = _field(p, "source", str, where, path)
        parties.append(party)
    ceremony = new_ceremony(_field(doc, "id", str, "", path), [p.name for p in parties if p.kind == "secret"],
                            [(p.name, p.source or "") for p in parties if p.kind == "public"])
    ceremony.parties = parties  # the order as listed (new_ceremony checked names and sources)
    ceremony.transcript = _field(doc, "transcript_sha256", opt, "", path)
    ceremony.sealed = _field(doc, "seed_commitment", opt, "", path)
    return ceremony


def make_contribution(ceremony: Ceremony, name: str) -> tuple[bytes, str]:
    """A fresh 32-byte contribution from the OS for party `name`, and its commitment."""
    ceremony.party(name)
    value = os.urandom(VALUE_BYTES)
    return value, commitment(ceremony.id, name, value)


def write_contribution(path: Path, ceremony: Ceremony, name: str, value: bytes) -> None:
    """Create the party's secret contribution file (mode 0600, never overwritten)."""
    _refuse_run_folder(path, "contribution")
    doc = {"format": CONTRIBUTION, "ceremony": ceremony.id, "party": name, "value": value.hex()}
    write_secret(path, canonical_bytes(doc) + b"\n", what="contribution file")


def read_contribution(path: Path, ceremony: Ceremony, name: str) -> bytes:
    """A party's contribution value, from a file made for this ceremony and this party."""
    doc = _json(path, "contribution")
    value = doc.get("value") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or doc.get("format") != CONTRIBUTION or not isinstance(value, str) \
            or not _HEX64.match(value):
        raise CeremonyError(f"{path}: not a contribution file")
    if doc.get("ceremony") != ceremony.id:
        raise CeremonyError(f"{path}: is a contribution to ceremony {doc.get('ceremony')!r}, "
                            f"not {ceremony.id!r}")
    if doc.get("party") != name:
        raise CeremonyError(f"{path}: is party {doc.get('party')!r}'s contribution, not {name!r}'s")
    return bytes.fromhex(doc["value"])
