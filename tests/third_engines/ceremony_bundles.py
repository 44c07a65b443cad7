"""Step 5's published ceremony bundles (`--ceremony-bundle`), from docs/ceremony.md "Verifying" alone: the
third engine's reading (tests/third_engines/ceremony.py), importing neither poolgen nor audit, with "A second
order of the same pools": an earlier order the run's transcript follows, shown by its signed manifest
(`--earlier-manifest`), and a later order whose transcript follows this run."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from tests.third_engines.ceremony import (
    Refused,
    check_abort,
    commitment,
    lp,
    signed,
    transcript_hash,
    utc_seconds,
)
from tests.third_engines.ceremony_shape import problem


@dataclass(frozen=True)
class Earlier:
    """An `--earlier-manifest`: its file name, exact bytes and the manifest.sig beside it."""

    name: str
    data: bytes
    signature: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def fingerprint(raw_hex: str) -> str:
    """A key's fingerprint as docs/manifest.md writes it: 16 hex digits of SHA-256 in groups of four."""
    digits = hashlib.sha256(bytes.fromhex(raw_hex)).hexdigest()[:16]
    return ":".join(digits[i:i + 4] for i in range(0, 16, 4))


def _earlier_order(name: str, t: dict, th: str, entry: dict, bound: str, earlier: list[Earlier],
                   key: str | None) -> str:
    """A bundle the run's transcript follows: accepted only with that order's signed manifest."""
    named = entry["manifest_sha256"]
    given = [e for e in earlier if e.sha256 == named]
    head = (f"bundle {name}: ceremony {t['id']} also bound {bound}, the earlier order this run's ceremony "
            "follows")
    if not given:
        raise Refused(f"{head}: give that order's signed manifest (--earlier-manifest, SHA-256 "
                      f"{named[:16]}...) to show its seed was fixed before this run's ceremony began")
    e = given[0]
    if key is None:
        raise Refused(f"{head}: its manifest's signature is checked with the run's public key (--public-key)")
    if not signed(key, e.signature.hex(), e.data):
        raise Refused(f"{head}: --earlier-manifest {e.name}: the signature does not verify with the given "
                      f"public key ({fingerprint(key)})")
    doc = json.loads(e.data)
    if doc.get("run_id") != t["run_id"] or (doc.get("ceremony") or {}).get("transcript_sha256") != th:
        raise Refused(f"{head}: --earlier-manifest {e.name} is not run {t['run_id']} seeded by ceremony "
                      f"{t['id']} (transcript {th[:16]}...)")
    return (f"{name}: ceremony {t['id']} of run {t['run_id']}, the earlier order this run's ceremony follows "
            f"(its signed manifest {named[:16]}...)")

def _regulation(text: object) -> str:
    """"Verifying": a regulation's ASCII letters and digits, upper-cased; nothing else."""
    if not isinstance(text, str):
        return ""
    return "".join(c.upper() for c in text if c in "0123456789" or ("a" <= c.lower() <= "z" and c.isascii()))


def _printed(number: object, regulation: object) -> str:
    return (f"game {number} of " if number is not None else "") + "".join(
        c if c.isprintable() else repr(c)[1:-1] for c in str(regulation))


def check_shape(name: str, doc: object) -> dict:
    """A bundle is the ceremony file less `reveals`: every field, of its type, and no other."""
    if not isinstance(doc, dict) or doc.get("format") != "poolgen-ceremony/2" \
            or not isinstance(doc.get("transcript"), dict) or not isinstance(doc.get("commitments"), list):
        raise Refused(f"{name}: not a ceremony bundle (format 'poolgen-ceremony/2', a transcript and "
                      "commitments)")
    found = problem(doc, reveals="reveals" in doc and doc.get("abort") is not None)  # an aborted file's
    if found is not None:
        raise Refused(f"{name}: not a ceremony bundle: {found}")
    return doc


def _all_revealed_in_time(name: str, t: dict, th: str, doc: dict) -> bool:
    """"Verifying": an aborted ceremony's file showing every party's reveal before the close, each signed
    and matching its commitment (one signed by its party that does not match is as missing)."""
    reveals = doc.get("reveals")
    if reveals is None or None in reveals or None in doc["commitments"]:
        return False
    if any(utc_seconds(r["revealed_at"]) is None or not r["revealed_at"] < t["beacon"]["reveals_close"]
           for r in reveals):  # at or after the close, or at no time written with every digit: as missing
        return False
    closed = hashlib.sha256(b"poolgen/ceremony/commitments/v2" + bytes.fromhex(th) + b"".join(
        lp(c["name"].encode()) + bytes.fromhex(c["commitment"]) for c in doc["commitments"])).digest()
    opened = True
    for party, c, r in zip(t["parties"], doc["commitments"], reveals, strict=True):
        who = party["name"]
        if c["name"] != who or r["name"] != who:
            raise Refused(f"bundle {name}: its commitments or reveals are not in the parties' order at "
                          f"'{who}'")
        message = (b"poolgen/ceremony/reveal/v2" + closed + lp(who.encode()) + lp(bytes.fromhex(r["value"]))
                   + lp(r["revealed_at"].encode()))
        if not signed(party["public_key"], r["signature"], message):
            raise Refused(f"bundle {name}: party '{who}': the reveal's signature is not by its listed key")
        if commitment(th, who, bytes.fromhex(r["value"])) != c["commitment"]:
            opened = False  # signed by its party, but no seed from it: poolgen aborts then
    return opened


def check_bundles(manifest: dict, bundles: list[tuple[str, dict]], earlier: list[Earlier] | None = None,
                  key: str | None = None, manifest_data: bytes | None = None) -> str:
    """Every bundle given, in order; the pass line, or `Refused` with the first failure. `key`: the run's
    public key (raw hex), `manifest_data`: the run's manifest.json bytes."""
    entry = manifest["ceremony"]
    own = entry["transcript_sha256"]
    t_run = entry["transcript"]
    game, run_id = manifest["game"]["rules"], manifest["run_id"]
    pools = [p["id"] for p in manifest["pools"]]
    followed = {f["transcript_sha256"]: f for f in t_run.get("follows", [])}
    mine_sha = hashlib.sha256(manifest_data).hexdigest() if manifest_data is not None else None
    lines, seen_own = [], False
    g = manifest["game"]
    here = _printed(g.get("number"), g.get("regulation"))
    own_name = next((n for n, raw in bundles
                     if isinstance(raw, dict) and raw.get("transcript_sha256") == own), None)
    for name, raw in bundles:
        doc = check_shape(name, raw)
        t, cid = doc["transcript"], doc["transcript"]["id"]
        if transcript_hash(t) != doc["transcript_sha256"]:
            raise Refused(f"bundle {name}: its transcript does not hash to its transcript_sha256")
        printed = t.get("printed")
        if printed is None and t["game"] != game:
            raise Refused(f"bundle {name}: ceremony {cid} binds game {t['game']}, not this run's ({game})")
        if printed is not None and not (
                (printed["number"] is not None and printed["number"] == g.get("number"))
                or (_regulation(printed["regulation"]) != ""
                    and _regulation(printed["regulation"]) == _regulation(g.get("regulation")))):
            there = _printed(printed["number"], printed["regulation"])
            lines.append(f"{name}: ceremony {cid} of another printed game ({there}), not this run's ({here})")
            continue
        renamed = "" if t["game"] == game else \
            f" (under game id {t['game']}: this run's printed game, {here})"
        if doc["transcript_sha256"] == own:
            if doc["commitments"] != entry["commitments"] or doc["abort"] is not None:
                raise Refused(f"bundle {name}: the commitments published for ceremony {cid} are not the "
                              "manifest's (or it was aborted)")
            late = [f for f in ("round", "seed_commitment", "run") if doc[f] is not None]
            if late:
                fields = late[0] if len(late) == 1 else ", ".join(late[:-1]) + " and " + late[-1]
                raise Refused(f"bundle {name}: this run's ceremony {cid} published with its {fields}, set "
                              "once every party had revealed and the round was out: it does not show the "
                              "commitments published before any reveal (give the bundle published before "
                              "the reveals)")
            seen_own = True
            lines.append(f"{name}: this run's ceremony {cid}, the manifest's commitments")
            continue
        shared = [p for p in t["pools"] if p in pools]
        if t["run_id"] != run_id and not shared:
            lines.append(f"{name}: ceremony {cid}{renamed} for run {t['run_id']}, other pools of game {game} "
                         f"({', '.join(t['pools'])})")
            continue
        listed = {party["name"] for party in t["parties"]}
        abort = doc["abort"]
        if abort is not None and abort["name"] in listed:  # an abort by no listed party is none
            try:
                aborted = check_abort(t, doc["transcript_sha256"], abort)
            except Refused as refused:
                raise Refused(f"bundle {name}: {refused}") from None
            if any(doc[field] is not None for field in ("round", "seed_commitment", "run")):
                number = (doc["round"] or {}).get("round")
                raise Refused(f"bundle {name}: ceremony {cid} was aborted by {aborted} after its seed was "
                              f"sealed (round {number}): poolgen aborts only while a reveal is missing, so "
                              "this abort followed a look at the seed, one more to choose from")
            if _all_revealed_in_time(name, t, doc["transcript_sha256"], doc):
                raise Refused(f"bundle {name}: ceremony {cid} was aborted by {aborted} after every party had "
                              "revealed before the close (its file shows each reveal signed by its listed "
                              "key): poolgen aborts only while a reveal is missing, so this abort followed a "
                              "look at the seed, one more to choose from")
            lines.append(f"{name}: ceremony {cid} for this run, aborted by {aborted} ({abort['reason']})")
            continue
        which = f"pool {shared[0]}" if len(shared) == 1 else f"pools {', '.join(shared)}"
        if t["run_id"] != run_id and doc["transcript_sha256"] in followed:
            lines.append(_earlier_order(name, t, doc["transcript_sha256"], followed[doc["transcript_sha256"]],
                                        f"{which} of this run (as run {t['run_id']})", earlier or [], key))
            continue
        if t["run_id"] != run_id and any(f["manifest_sha256"] == mine_sha and f["transcript_sha256"] == own
                                         for f in t.get("follows", [])):
            lines.append(f"{name}: ceremony {cid} for run {t['run_id']}, a later order: its transcript names "
                         "this run's manifest, so it began after this run's seed was fixed")
            continue
        beside = f" (this run's ceremony {t_run['id']} is bundle {own_name})" if renamed and own_name else \
            ""
        if t["run_id"] == run_id:
            raise Refused(f"bundle {name}: ceremony {cid}{renamed} also bound run {run_id} and was not "
                          f"aborted: its seed was one more to choose from{beside}")
        raise Refused(f"bundle {name}: ceremony {cid}{renamed} also bound {which} of this run (as run "
                      f"{t['run_id']}) and was not aborted: its seed was one more to choose from{beside}")
    if not seen_own:
        raise Refused(f"no bundle given is of this run's ceremony {t_run['id']}: its commitments are not "
                      "shown published before any reveal (ceremony publish)")
    named = {f["manifest_sha256"] for f in followed.values()}
    for e in earlier or []:
        if e.sha256 not in named:
            raise Refused(f"--earlier-manifest {e.name}: no earlier order this run's ceremony follows has "
                          f"its SHA-256 ({e.sha256[:16]}...)")
    return "ceremony bundles: " + "; ".join(lines)
