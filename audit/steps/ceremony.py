"""Step 7 with a ceremony file: the run's seed came from exactly the parties' revealed contributions.

Written again from docs/ceremony.md (audit never imports poolgen):

    lp(x)       = len(x) as 8-byte big-endian || x
    commitment  = SHA-256("poolgen/ceremony/commitment/v1" || lp(id) || lp(name) || lp(value))
    transcript  = SHA-256("poolgen/ceremony/transcript/v1" || lp(id) ||
                          for each party in listed order: lp(name) || lp(kind) || lp(c))
                  c = the commitment's 32 bytes (secret party), the source's UTF-8 (public party)
    seed        = SHA-256("poolgen/ceremony/seed/v1" || transcript ||
                          for each party in listed order: lp(name) || lp(r))
                  r = the contribution's 32 bytes (secret party), the public value's UTF-8 (public party)

The ceremony file given to `verify --ceremony` is the one the parties revealed into; its public part
must be what the signed manifest records (`ceremony`), every reveal must match its commitment, and
the seed derived from the reveals must match the manifest's seed commitment (audit/steps/reproduction.py).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from audit.checklist import Step
from audit.errors import UnusableInput, VerificationError
from audit.read.limits import parse_json, read_input
from audit.read.manifest import Manifest

FORMAT = "poolgen-ceremony/1"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _lp(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def read_ceremony(path: Path) -> dict[str, Any]:
    """A ceremony file, checked for shape: an id and a list of parties with names and kinds."""
    doc = parse_json(read_input(path, "ceremony"), str(path), "ceremony file")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("id"), str):
        raise UnusableInput(f"{path}: not a ceremony file (format is not {FORMAT!r})")
    parties = doc.get("parties")
    if not isinstance(parties, list) or not parties:
        raise UnusableInput(f"{path}: parties: missing or empty")
    for i, p in enumerate(parties):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) \
                or p.get("kind") not in ("secret", "public"):
            raise UnusableInput(f"{path}: parties[{i}]: needs a name and a kind (secret or public)")
        wanted = ("commitment", "reveal") if p["kind"] == "secret" else ("source", "reveal")
        for key in wanted:
            if not isinstance(p.get(key), str):
                raise UnusableInput(f"{path}: parties[{i}].{key}: missing (party {p['name']!r} has not "
                                    f"{'committed' if key == 'commitment' else 'revealed'})")
        if p["kind"] == "secret" and not all(_HEX64.match(p[k]) for k in wanted):
            raise UnusableInput(f"{path}: parties[{i}]: commitment and reveal are 64 lower-case hex digits")
    return doc


def commitment(ceremony_id: str, name: str, value: bytes) -> str:
    return hashlib.sha256(b"poolgen/ceremony/commitment/v1" + _lp(ceremony_id.encode()) + _lp(name.encode())
                          + _lp(value)).hexdigest()


def transcript(ceremony_id: str, parties: list[dict[str, Any]]) -> bytes:
    h = hashlib.sha256(b"poolgen/ceremony/transcript/v1" + _lp(ceremony_id.encode()))
    for p in parties:
        c = bytes.fromhex(p["commitment"]) if p["kind"] == "secret" else p["source"].encode()
        h.update(_lp(p["name"].encode()) + _lp(p["kind"].encode()) + _lp(c))
    return h.digest()


def _public(p: dict[str, Any]) -> dict[str, Any]:
    """A party as the manifest records it."""
    if p["kind"] == "secret":
        return {"name": p["name"], "kind": "secret", "commitment": p["commitment"]}
    return {"name": p["name"], "kind": "public", "source": p["source"], "value": p["reveal"]}


def ceremony_seed(manifest: Manifest, doc: dict[str, Any]) -> tuple[bytes, str]:
    """(7) the seed derived from the ceremony file's reveals, after checking that the file is the
    manifest's ceremony and that every reveal matches its commitment; and what was checked."""
    stated = manifest.doc.get("ceremony")
    if not isinstance(stated, dict):
        raise VerificationError(Step.REPRODUCTION,
                                "the manifest records no seed ceremony; give --seed-file instead")
    cid, parties = doc["id"], doc["parties"]
    if stated.get("id") != cid:
        raise VerificationError(Step.REPRODUCTION,
                                f"the ceremony file is ceremony {cid!r}, the manifest's is "
                                f"{stated.get('id')!r}")
    names = [p["name"] for p in parties]
    if len(set(names)) != len(names):
        raise VerificationError(Step.REPRODUCTION, "a party appears twice in the ceremony file")
    want = stated.get("parties")
    mine = [_public(p) for p in parties]
    if mine != want:
        listed = [p.get("name") for p in want] if isinstance(want, list) and all(
            isinstance(p, dict) for p in want) else want
        if listed != names:
            raise VerificationError(Step.REPRODUCTION,
                                    f"the ceremony file's parties ({', '.join(names)}) are not the "
                                    f"manifest's ({listed})")
        assert isinstance(want, list)  # its names are the parties' (listed == names)
        differ = [m["name"] for m, w in zip(mine, want, strict=True) if m != w]
        raise VerificationError(Step.REPRODUCTION,
                                f"the commitments or public values of {', '.join(differ)} are not the "
                                "manifest's")
    closed = transcript(cid, parties)
    if closed.hex() != stated.get("transcript_sha256"):
        raise VerificationError(Step.REPRODUCTION,
                                "the transcript of the commitments does not recompute to the manifest's "
                                "transcript_sha256")
    wrong = [p["name"] for p in parties if p["kind"] == "secret"
             and commitment(cid, p["name"], bytes.fromhex(p["reveal"])) != p["commitment"]]
    if wrong:
        raise VerificationError(Step.REPRODUCTION,
                                f"the reveal of {', '.join(wrong)} does not match its commitment")
    h = hashlib.sha256(b"poolgen/ceremony/seed/v1" + closed)
    for p in parties:
        r = bytes.fromhex(p["reveal"]) if p["kind"] == "secret" else p["reveal"].encode()
        h.update(_lp(p["name"].encode()) + _lp(r))
    return h.digest(), (f"ceremony {cid}: the reveals of {len(parties)} parties ({', '.join(names)}) each "
                        f"match the manifest's commitments (transcript {closed.hex()[:16]}...)")
