"""The seed ceremony, checked again from docs/ceremony.md (audit never imports poolgen).

    transcript  = SHA-256("poolgen/ceremony/transcript/v2" || lp(id) || lp(spec_sha256) || lp(code_sha256)
                          || lp(game) || u64(#pools) || lp(pool)... || lp(run_id) || u64(#parties)
                          || (lp(name) || lp(public_key))... || lp(chain) || u64(round) || lp(reveals_close)
                          [|| lp(book_key_check), only in a transcript that binds a book key])
                  or, for a transcript naming earlier orders of its pools, "poolgen/ceremony/transcript/v3"
                  || the same fields to lp(reveals_close) || u64(0) or u64(1) || lp(book_key_check)
                  || u64(#follows) || (lp(run_id) || lp(manifest_sha256) || lp(transcript_sha256))...
                  or, for one binding the printed game (every transcript `new` makes now),
                  "poolgen/ceremony/transcript/v4" || the fields of v3 (u64(0) followed orders when none)
                  || u64(0) or u64(1) || u64(number) || lp(regulation)
    commitment  = SHA-256("poolgen/ceremony/commitment/v2" || transcript || lp(name) || lp(value))
    commitments = SHA-256("poolgen/ceremony/commitments/v2" || transcript || (lp(name) || commitment)...)
    seed        = SHA-256("poolgen/ceremony/seed/v2" || commitments || (lp(name) || lp(value))...
                          || u64(round) || lp(randomness))
    signatures  Ed25519 by each party's listed key over
                "poolgen/ceremony/commit/v2" || transcript || lp(name) || commitment and
                "poolgen/ceremony/reveal/v2" || commitments || lp(name) || lp(value) || lp(revealed_at)

`check_bound` (step 5, whenever the manifest records a ceremony): the run is the one its transcript binds.
`ceremony_seed` (step 7, given the ceremony file with every reveal): the file is the manifest's ceremony
and records no abort, every signature is by the listed key (and the auditor's, if given), every reveal
matches and came before reveals closed, the drand round is the named one and its signature verifies;
then the seed derived from it all (audit/steps/reproduction.py compares it with the seed commitment).
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.checklist import Step
from audit.errors import UnusableInput, VerificationError
from audit.read.beacon import LAST_TIME, QUICKNET_HASH, rehearsal, round_time, verifies
from audit.read.ceremony import ceremony_problem
from audit.read.limits import parse_json, read_input
from audit.read.manifest import Manifest

FORMAT = "poolgen-ceremony/2"
_HEX64 = re.compile(r"[0-9a-f]{64}")
TIME = "%Y-%m-%dT%H:%M:%SZ"


def shown(text: str) -> str:
    """Text from a ceremony file as one printable line, control characters escaped: an abort's reason
    (or a name) could otherwise move the cursor or hide lines of the report on a terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def lp(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _fp(raw_hex: str) -> str:
    d = hashlib.sha256(bytes.fromhex(raw_hex)).hexdigest()[:16]
    return ":".join(d[i:i + 4] for i in range(0, 16, 4))


def read_ceremony(path: Path) -> dict[str, Any]:
    """A revealed ceremony file: its transcript, commitments, reveals and round (shape only)."""
    doc = parse_json(read_input(path, "ceremony"), str(path), "ceremony file")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UnusableInput(f"{path}: not a ceremony file (format is not {FORMAT!r})")
    t = doc.get("transcript")
    if not isinstance(t, dict) or not isinstance(t.get("parties"), list) or not t["parties"]:
        raise UnusableInput(f"{path}: transcript: missing or without parties")
    n = len(t["parties"])
    for key in ("commitments", "reveals"):
        entries = doc.get(key)
        if not isinstance(entries, list) or len(entries) != n \
                or not all(isinstance(e, dict) for e in entries):
            raise UnusableInput(f"{path}: {key}: one per party, every party's (the ceremony is not complete)")
    if not isinstance(doc.get("round"), dict):
        raise UnusableInput(f"{path}: round: missing (the ceremony is not sealed)")
    problem = ceremony_problem(doc)
    if problem is not None:
        raise UnusableInput(f"{path}: not a ceremony file: {problem}")
    return doc


def transcript_hash(t: dict[str, Any]) -> str:
    """v4 for a transcript that binds the printed game; else v2, or v3 for one that follows earlier orders."""
    b = t["beacon"]
    data = (lp(t["id"].encode()) + lp(bytes.fromhex(t["spec_sha256"]))
            + lp(bytes.fromhex(t["code_sha256"])) + lp(t["game"].encode()) + u64(len(t["pools"]))
            + b"".join(lp(p.encode()) for p in t["pools"]) + lp(t["run_id"].encode())
            + u64(len(t["parties"]))
            + b"".join(lp(p["name"].encode()) + lp(bytes.fromhex(p["public_key"])) for p in t["parties"])
            + lp(bytes.fromhex(b["chain"])) + u64(b["round"]) + lp(b["reveals_close"].encode()))
    if "follows" not in t and "printed" not in t:
        if "book_key_check" in t:  # a book key bound before anyone committed (docs/ceremony.md)
            data += lp(bytes.fromhex(t["book_key_check"]))
        return hashlib.sha256(b"poolgen/ceremony/transcript/v2" + data).hexdigest()
    check, follows = t.get("book_key_check"), t.get("follows", [])
    data += u64(0) if check is None else u64(1) + lp(bytes.fromhex(check))
    data += u64(len(follows)) + b"".join(
        lp(f["run_id"].encode()) + lp(bytes.fromhex(f["manifest_sha256"]))
        + lp(bytes.fromhex(f["transcript_sha256"])) for f in follows)
    if "printed" not in t:
        return hashlib.sha256(b"poolgen/ceremony/transcript/v3" + data).hexdigest()
    number = t["printed"]["number"]
    data += (u64(0) if number is None else u64(1) + u64(number)) + lp(t["printed"]["regulation"].encode())
    return hashlib.sha256(b"poolgen/ceremony/transcript/v4" + data).hexdigest()


def printed_of(number: object, regulation: object) -> str:
    """A printed game as step 5 names it: `game 358 of K.A.R. 111-4-3762` (an eInstant, which has no
    number: its regulation alone)."""
    return ("" if number is None else f"game {number} of ") + shown(str(regulation))


# The 600 s rule came in on 2026-12-05 (docs/ceremony.md): a ceremony made before then was made under the
# rule before it (the round only after the close) and is held to that, so a run verified before keeps its
# verdict. What dates it is what a transcript cannot choose: its round's own time (drand's genesis and
# period; a run is generated only once its round is out, so a run verified before the rule has a round
# due before it), and its version (a v4 transcript, one that binds the printed game, is made only by code
# that has the rule). A reveals-close date alone is the transcript's free choice.
GAP_SINCE = "2026-12-05T00:00:00Z"
GAP_SINCE_UNIX = 1796428800  # GAP_SINCE in Unix seconds


def transcript_rules(t: dict[str, Any], step: Step) -> None:
    """What `ceremony new` promises of a transcript, held again (an operator can write and sign one by
    hand): 2 to 16 secret parties, each named once with its own key; quicknet; reveals closing, as a
    UTC time YYYY-MM-DDTHH:MM:SSZ, 600 s or more before the named round is published (only after it,
    for a transcript before v4 whose round was due before GAP_SINCE), which is dated by
    9999-12-31T23:59:59Z."""
    parties, beacon = t["parties"], t["beacon"]
    if not 2 <= len(parties) <= 16:
        raise VerificationError(step, f"ceremony {t['id']} lists {len(parties)} secret part"
                                f"{'y' if len(parties) == 1 else 'ies'}; a ceremony needs 2 to 16")
    names = [p["name"] for p in parties]
    keys = [p["public_key"] for p in parties]
    for i, (name, key) in enumerate(zip(names, keys, strict=True)):
        if not isinstance(key, str) or not _HEX64.fullmatch(key):  # one spelling a key: "AB" hashes as "ab"
            raise VerificationError(step, f"ceremony {t['id']}: party {name!r}: public key is not 64 "
                                    "lower-case hex digits")
        if names.index(name) != i:
            raise VerificationError(step, f"ceremony {t['id']} names party {name!r} twice")
        if keys.index(key) != i:
            raise VerificationError(step, f"ceremony {t['id']}: parties {names[keys.index(key)]!r} and "
                                    f"{name!r} have the same key; each party has its own")
    if beacon["chain"] != QUICKNET_HASH:
        raise VerificationError(step, f"beacon chain {beacon['chain']} is not one this verifier knows "
                                f"(quicknet {QUICKNET_HASH})")
    close = beacon["reveals_close"]
    if not utc_time(close):
        raise VerificationError(step, f"reveals_close {close!r} is not a UTC time YYYY-MM-DDTHH:MM:SSZ")
    if round_time(beacon["round"]) > LAST_TIME:  # a datetime ends there: no later time is written
        raise VerificationError(step, f"round {beacon['round']} is published after 9999-12-31T23:59:59Z, "
                                "the last time a ceremony can name")
    due = datetime.fromtimestamp(round_time(beacon["round"]), UTC).strftime(TIME)
    if not close < due:  # both YYYY-MM-DDTHH:MM:SSZ: text order is time order
        raise VerificationError(step, f"round {beacon['round']} is published at {due}, not after reveals "
                                f"close ({close})")
    gap = round_time(beacon["round"]) - int(datetime.strptime(close, TIME).replace(tzinfo=UTC).timestamp())
    before_rule = "printed" not in t and round_time(beacon["round"]) < GAP_SINCE_UNIX
    if gap < 600 and not before_rule:  # a late reveal signed before the close is seen only if late
        raise VerificationError(step, f"round {beacon['round']} is published at {due}, {gap} s after reveals "
                                f"close ({close}), not the 600 s (10 minutes) a party needs to see a reveal "
                                "arrive after the close")
    follows = t.get("follows", [{}])  # absent, or earlier orders named at `new` (never an empty list)
    if not isinstance(follows, list) or not follows:
        raise VerificationError(step, f"ceremony {t['id']}: follows is not a list of earlier orders")
    for i, f in enumerate(t.get("follows", [])):
        if not isinstance(f, dict) or not isinstance(f.get("run_id"), str) \
                or not all(isinstance(f.get(k), str) and _HEX64.fullmatch(f[k])
                           for k in ("manifest_sha256", "transcript_sha256")):
            raise VerificationError(step, f"ceremony {t['id']}: follows[{i}] is not a run id, a manifest's "
                                    "and a transcript's SHA-256 in 64 lower-case hex digits")
        if f["run_id"] == t["run_id"]:
            raise VerificationError(step, f"ceremony {t['id']} follows run {f['run_id']}, its own run id")


def utc_time(text: object) -> bool:
    """`text` is a UTC time written YYYY-MM-DDTHH:MM:SSZ (so text order is time order)."""
    if not isinstance(text, str) or len(text) != 20:
        return False
    try:
        return datetime.strptime(text, TIME).strftime(TIME) == text
    except ValueError:
        return False


def _fail(message: str) -> VerificationError:
    return VerificationError(Step.REPRODUCTION, message)


def check_bound(manifest: Manifest, spec_sha256: str | None = None,
                party_keys: dict[str, Ed25519PublicKey] | None = None) -> str:
    """(5) the run is the one the manifest's ceremony transcript binds: spec, code, game, pools, run id;
    every commitment in the manifest is signed by its party's listed key (the auditor's, if given)."""
    entry = manifest.doc.get("ceremony")
    if entry is None:  # the auditor named the parties (--party-key) of a ceremony the run does not record
        raise VerificationError(Step.FIGURES, "the auditor expects a ceremony's parties (--party-key), but "
                                "the manifest records no ceremony: the run's seed was chosen by no ceremony")
    if not isinstance(entry, dict) or entry.get("format") != FORMAT:
        raise VerificationError(Step.FIGURES, f"the manifest's ceremony is not {FORMAT!r}")
    t = entry.get("transcript")
    try:
        recomputed = transcript_hash(t)  # type: ignore[arg-type]
    except (TypeError, KeyError, ValueError, AttributeError, OverflowError):  # u64 of a negative
        raise VerificationError(Step.FIGURES, "the manifest's ceremony transcript is malformed") from None
    assert isinstance(t, dict)
    if recomputed != entry.get("transcript_sha256"):
        raise VerificationError(Step.FIGURES, "the manifest's ceremony transcript does not hash to its "
                                "transcript_sha256")
    transcript_rules(t, Step.FIGURES)
    doc = manifest.doc
    made = {"spec SHA-256": doc["spec"].get("sha256"),
            "code SHA-256": doc.get("tool", {}).get("code", {}).get("sha256"),
            "game": doc["game"].get("rules"), "pools": [p.id for p in manifest.pools],
            "run id": doc.get("run_id"), "book key check": (doc.get("print") or {}).get("book_key_check")}
    bound = {"spec SHA-256": t["spec_sha256"], "code SHA-256": t["code_sha256"], "game": t["game"],
             "pools": t["pools"], "run id": t["run_id"], "book key check": t.get("book_key_check")}
    if "printed" in t:  # v4: the printed game, whatever the spec's free id (`game`) says
        made["printed"] = printed_of(doc["game"].get("number"), doc["game"].get("regulation"))
        bound["printed"] = printed_of(t["printed"]["number"], t["printed"]["regulation"])
    differ = [f"{k} {made[k]} (bound: {bound[k]})" for k in made if made[k] != bound[k]]
    if spec_sha256 is not None and spec_sha256 != t["spec_sha256"]:
        differ.append(f"the spec given hashes to {spec_sha256[:16]}... (bound: {t['spec_sha256'][:16]}...)")
    if differ:
        raise VerificationError(Step.FIGURES,
                                f"the run is not the one ceremony {t['id']} binds: " + "; ".join(differ))
    commitments = entry.get("commitments")
    if not isinstance(commitments, list) or len(commitments) != len(t["parties"]) \
            or not all(isinstance(c, dict) for c in commitments):
        raise VerificationError(Step.FIGURES, "the manifest's ceremony lacks a commitment of every party")
    closed_commitments(t, recomputed, commitments, entry.get("commitments_sha256"), Step.FIGURES)
    if party_keys is not None:
        check_party_keys(t, party_keys, Step.FIGURES)
    rnd = entry.get("round")
    if not isinstance(rnd, dict) or rnd.get("round") != t["beacon"]["round"]:
        raise VerificationError(Step.FIGURES, f"the manifest's drand round is not the one ceremony {t['id']} "
                                f"named ({t['beacon']['round']})")
    _public_round(rnd)
    whose = "the keys the auditor expects" if party_keys is not None else (
        "their listed keys, which no auditor vouched for (--party-key: the parties could all be one "
        "insider's keys)")
    return (f"the run is the one ceremony {t['id']} bound before anyone committed: spec "
            f"{t['spec_sha256'][:16]}..., code {t['code_sha256'][:16]}..., game {t['game']}, pools "
            f"{', '.join(t['pools'])}, run {t['run_id']}; {len(commitments)} commitments signed by {whose}; "
            f"quicknet round {t['beacon']['round']} verifies" + rehearsal(t) + "".join(
                f"; it follows run {f['run_id']} (manifest {f['manifest_sha256'][:16]}..., ceremony "
                f"transcript {f['transcript_sha256'][:16]}...)" for f in t.get("follows", [])))


def _public_round(rnd: dict[str, Any]) -> None:
    """(5) the manifest's round is quicknet's: it is public before sale, so a randomness written by whoever
    held every reveal (a seed chosen among many) is refused then, not at the close."""
    number, sig = rnd["round"], rnd.get("signature")
    try:
        hashed = hashlib.sha256(bytes.fromhex(sig)).hexdigest()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        hashed = None
    if hashed != rnd.get("randomness"):
        raise VerificationError(Step.FIGURES, f"the manifest's drand round {number}: its randomness is not "
                                "the SHA-256 of its signature")
    assert isinstance(sig, str)
    if not verifies(number, sig):
        raise VerificationError(Step.FIGURES, f"the manifest's drand round {number}: its signature does not "
                                "verify against chain quicknet's public key (randomness nobody can check: "
                                "the seed could have been chosen)")


def signed(name: str, raw_hex: str, what: str, signature: str, message: bytes,
            step: Step = Step.REPRODUCTION) -> None:
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(raw_hex)).verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError, TypeError):
        raise VerificationError(step, f"party {name!r}: the {what}'s signature is not by its listed "
                                "key") from None


def closed_commitments(t: dict[str, Any], th: str, commitments: list[dict[str, Any]], stated: object,
                       step: Step) -> str:
    """Every commitment signed by its party's listed key, in the parties' order; their hash, which must
    be the manifest's `commitments_sha256`."""
    data = b""
    for p, c in zip(t["parties"], commitments, strict=True):
        name = p["name"]
        if c.get("name") != name:
            raise VerificationError(step, f"commitments are not in the parties' order at {name!r}")
        signed(name, p["public_key"], "commitment", c["signature"], b"poolgen/ceremony/commit/v2"
                + bytes.fromhex(th) + lp(name.encode()) + bytes.fromhex(c["commitment"]), step)
        data += lp(name.encode()) + bytes.fromhex(c["commitment"])
    closed = hashlib.sha256(b"poolgen/ceremony/commitments/v2" + bytes.fromhex(th) + data).hexdigest()
    if closed != stated:
        raise VerificationError(step, "the commitments do not recompute to the manifest's commitments_sha256")
    return closed


def check_party_keys(t: dict[str, Any], expected: dict[str, Ed25519PublicKey],
                     step: Step = Step.REPRODUCTION) -> None:
    """The parties are exactly those the auditor expects, each with the key the auditor holds."""
    listed = {p["name"]: p["public_key"] for p in t["parties"]}
    if set(listed) != set(expected):
        raise VerificationError(step, f"the ceremony's parties are {', '.join(listed)}, the auditor "
                                f"expects {', '.join(expected)}")
    for name, key in expected.items():
        raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()
        if raw != listed[name]:
            raise VerificationError(step, f"party {name!r} is listed with key {_fp(listed[name])}, the "
                                    f"auditor expects {_fp(raw)}")


def seed_file_for_ceremony(entry: object) -> str:
    """Why step 7 refuses a seed file for a run whose manifest records a ceremony: the seed commitment
    matching shows the seed is the run's, not that the ceremony gave it (any seed could be dressed with
    a real ceremony's entry)."""
    t = entry.get("transcript") if isinstance(entry, dict) else None
    name = t.get("id") if isinstance(t, dict) else None
    return (f"the manifest records seed ceremony {name!r}: its seed is checked from the ceremony file "
            "(--ceremony), not a seed file, which cannot show that the ceremony gave it")


def ceremony_seed(manifest: Manifest, doc: dict[str, Any],
                  party_keys: dict[str, Ed25519PublicKey] | None = None) -> tuple[bytes, str]:
    """(7) the seed derived from the revealed ceremony file, after every check of docs/ceremony.md."""
    stated = manifest.doc.get("ceremony")
    if not isinstance(stated, dict):
        raise _fail("the manifest records no seed ceremony; give --seed-file instead")
    t, mine = stated.get("transcript"), doc["transcript"]
    if mine != t:
        mine_id = mine.get("id") if isinstance(mine, dict) else None
        run_id = t.get("id") if isinstance(t, dict) else None
        raise _fail(f"the ceremony file is ceremony {mine_id!r} (transcript "
                    f"{str(doc.get('transcript_sha256'))[:16]}...), the run's is {run_id!r} (transcript "
                    f"{str(stated.get('transcript_sha256'))[:16]}...)")
    assert isinstance(t, dict)
    th = transcript_hash(t)
    if th != stated.get("transcript_sha256"):
        raise _fail("the transcript does not recompute to the manifest's transcript_sha256")
    transcript_rules(t, Step.REPRODUCTION)
    if party_keys is not None:
        check_party_keys(t, party_keys)
    keys = {p["name"]: p["public_key"] for p in t["parties"]}
    names = list(keys)
    abort = doc.get("abort")
    if abort is not None:  # generate refuses an aborted ceremony; a file recording one seeds no run
        if not isinstance(abort, dict) or abort.get("name") not in keys:
            raise _fail("the ceremony file records an abort by no listed party")
        name, reason = abort["name"], str(abort.get("reason"))
        signed(name, keys[name], "abort", str(abort.get("signature")), b"poolgen/ceremony/abort/v2"
                + bytes.fromhex(th) + lp(name.encode()) + lp(reason.encode()))
        raise _fail(f"ceremony {t['id']} was aborted by {shown(name)} ({shown(reason)}): an aborted "
                    "ceremony seeds no run")
    if doc["commitments"] != stated.get("commitments") or doc.get("round") != stated.get("round"):
        raise _fail("the ceremony file's commitments or round are not the manifest's")
    closed = closed_commitments(t, th, doc["commitments"], stated.get("commitments_sha256"),
                                Step.REPRODUCTION)
    close = t["beacon"]["reveals_close"]
    reveals = b""
    for name, c, r in zip(names, doc["commitments"], doc["reveals"], strict=True):
        value = bytes.fromhex(r.get("value", ""))
        if len(value) != 32:  # the documented derivation takes 32 contribution bytes a party
            raise _fail(f"party {name!r}: its contribution is {len(value)} bytes, not 32")
        at = r.get("revealed_at", "")
        signed(name, keys[name], "reveal", r.get("signature", ""), b"poolgen/ceremony/reveal/v2"
                + bytes.fromhex(closed) + lp(name.encode()) + lp(value) + lp(at.encode()))
        if hashlib.sha256(b"poolgen/ceremony/commitment/v2" + bytes.fromhex(th) + lp(name.encode())
                          + lp(value)).hexdigest() != c["commitment"]:
            raise _fail(f"the reveal of {name} does not match its commitment")
        if not utc_time(at):
            raise _fail(f"party {name!r}: revealed_at {at!r} is not a UTC time YYYY-MM-DDTHH:MM:SSZ")
        if not at < close:  # both YYYY-MM-DDTHH:MM:SSZ: text order is time order
            raise _fail(f"party {name!r} revealed at {at}, after reveals closed at {close}")
        reveals += lp(name.encode()) + lp(value)
    beacon, rnd = t["beacon"], doc["round"]
    if rnd.get("round") != beacon["round"]:
        raise _fail(f"the round is {rnd.get('round')}, the ceremony names round {beacon['round']}")
    sig = rnd.get("signature", "")
    if hashlib.sha256(bytes.fromhex(sig)).hexdigest() != rnd.get("randomness"):
        raise _fail("the round's randomness is not the SHA-256 of its signature")
    if not verifies(beacon["round"], sig):
        raise _fail(f"the signature of round {beacon['round']} does not verify against chain quicknet's "
                    "public key")
    seed = hashlib.sha256(b"poolgen/ceremony/seed/v2" + bytes.fromhex(closed) + reveals
                          + u64(beacon["round"]) + lp(bytes.fromhex(rnd["randomness"]))).digest()
    checked = "the keys the auditor expects" if party_keys is not None else "their listed keys"
    return seed, (f"ceremony {t['id']}: {len(names)} parties ({', '.join(names)}) committed and revealed "
                  f"under {checked}, before reveals closed; quicknet round {beacon['round']} verifies "
                  f"(transcript {th[:16]}...)")
